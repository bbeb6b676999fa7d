import { ref } from 'vue';
import { extensionOf } from '#shared/parse/file-types.ts';
import { api } from './api.ts';
import type { ReadableType, StatusInfo } from './types.ts';

/** The file types the server reads (`GET /api/status` `readableTypes`): the one list the page uses. */
export const readableTypes = ref<readonly ReadableType[]>([]);
let loading: Promise<void> | undefined;

/** Loads the server's list once per page; later calls share the first request. */
export function loadReadableTypes(): Promise<void> {
  loading ??= api<StatusInfo>('/api/status')
    .then((status) => {
      readableTypes.value = status.readableTypes ?? [];
    })
    .catch(() => {
      loading = undefined;
    });
  return loading;
}

/** The `accept` attribute of the file picker: every extension the server reads. */
export function acceptAttribute(types: readonly ReadableType[]): string {
  return types.flatMap((t) => t.extensions).join(',');
}

/** True when a document's type (or, before it is detected, its name's extension) can never be read. */
export function isReadable(types: readonly ReadableType[], fileType: string, filename: string): boolean {
  if (types.some((t) => t.type === fileType)) return true;
  const ext = extensionOf(filename);
  return fileType === 'unknown' && types.some((t) => t.extensions.includes(ext));
}

export { extensionOf };

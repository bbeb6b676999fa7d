import { posix } from 'node:path';
import { NotFoundError } from '../errors.ts';
import { assertSafeKey } from '../storage/keys.ts';
import type { BlobStore } from '../storage/types.ts';

/**
 * `ParseInput.readRelative` for a document stored at `objectKey`: reads files beside it in the bucket
 * (the images a Markdown file references), never outside the document's own folder.
 */
export function relativeReader(
  store: BlobStore,
  objectKey: string,
): (relativePath: string) => Promise<Uint8Array | undefined> {
  const folder = posix.dirname(objectKey);
  return async (relativePath) => {
    const key = folder === '.' ? posix.normalize(relativePath) : posix.join(folder, relativePath);
    if (key.startsWith('../') || key === '..' || (folder !== '.' && !key.startsWith(`${folder}/`)))
      return undefined;
    try {
      assertSafeKey(key);
    } catch {
      return undefined;
    }
    try {
      return await store.get(key);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
}

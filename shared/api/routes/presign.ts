import { ValidationError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { BlobStore } from '../../storage/types.ts';

/** Presigned URLs are short-lived: long enough to start a large upload, no longer. */
const EXPIRES_SECONDS = 900;

/** A bucket that can hand out direct upload URLs (the S3 store); the local folder cannot. */
export interface PresigningStore extends BlobStore {
  presignUpload(
    key: string,
    options: { contentType?: string; maxBytes: number; expiresSeconds: number },
  ): Promise<{
    url: string;
    method: 'PUT' | 'POST';
    headers?: Record<string, string>;
    fields?: Record<string, string>;
  }>;
}

export type PresignResult =
  | {
      supported: true;
      key: string;
      url: string;
      method: 'PUT' | 'POST';
      headers: Record<string, string>;
      fields: Record<string, string>;
      expiresAt: string;
    }
  | { supported: false; error: { code: 'not_supported'; message: string } };

function canPresign(store: BlobStore): store is PresigningStore {
  return typeof (store as Partial<PresigningStore>).presignUpload === 'function';
}

/**
 * A direct upload URL for `key` when the bucket supports it (bounded in size by limits.maxFileBytes,
 * in prefix by the key, and in time); the bucket's "Object Created" event then starts ingestion.
 * The local folder bucket answers `supported: false` and points at the multipart upload.
 */
export async function presignUpload(
  rt: Pick<Runtime, 'store' | 'config'>,
  request: { key: string; size: number; contentType?: string },
): Promise<PresignResult> {
  const maxBytes = rt.config.limits.maxFileBytes;
  if (request.size > maxBytes) {
    throw new ValidationError(
      `body.size: ${request.size} bytes is above the ${maxBytes} limit (limits.maxFileBytes)`,
    );
  }
  if (!canPresign(rt.store)) {
    return {
      supported: false,
      error: {
        code: 'not_supported',
        message: 'This bucket (a local folder) has no presigned uploads: use POST /api/documents/upload',
      },
    };
  }
  const signed = await rt.store.presignUpload(request.key, {
    contentType: request.contentType,
    maxBytes,
    expiresSeconds: EXPIRES_SECONDS,
  });
  return {
    supported: true,
    key: request.key,
    url: signed.url,
    method: signed.method,
    headers: signed.headers ?? {},
    fields: signed.fields ?? {},
    expiresAt: new Date(Date.now() + EXPIRES_SECONDS * 1000).toISOString(),
  };
}

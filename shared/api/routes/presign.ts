import { ValidationError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { LocalBlobStore } from '../../storage/local.ts';

export type PresignResult =
  | {
      supported: true;
      key: string;
      url: string;
      method: 'PUT';
      headers: Record<string, string>;
      expiresAt: string;
    }
  | { supported: false; error: { code: 'not_supported'; message: string } };

/**
 * A direct upload URL for `key` when the bucket supports it (S3: bounded in size by
 * limits.maxFileBytes and the declared size, in type, in prefix by the key, and in time); the
 * bucket's "Object Created" event then starts ingestion. The local folder bucket answers
 * `supported: false` and points at the multipart upload.
 */
export async function presignUpload(
  rt: Pick<Runtime, 'store' | 'config'>,
  request: { key: string; size: number; contentType?: string },
): Promise<PresignResult> {
  const maxBytes = rt.config.limits.maxFileBytes;
  const expiresSeconds = rt.config.lifecycle.presignExpirySeconds;
  if (request.size > maxBytes) {
    throw new ValidationError(
      `body.size: ${request.size} bytes is above the ${maxBytes} limit (limits.maxFileBytes)`,
    );
  }
  // The S3 side (the AWS SDK's client) is loaded only for a bucket that may be S3, not on a local start.
  const signed =
    rt.store instanceof LocalBlobStore
      ? undefined
      : await (await import('./s3-presign.ts')).presignS3Put(rt.store, {
          key: request.key,
          size: request.size,
          contentType: request.contentType ?? 'application/octet-stream',
          expiresSeconds,
        });
  if (!signed) {
    return {
      supported: false,
      error: {
        code: 'not_supported',
        message: 'This bucket (a local folder) has no presigned uploads: use POST /api/documents/upload',
      },
    };
  }
  return {
    supported: true,
    key: request.key,
    ...signed,
    expiresAt: new Date(Date.now() + expiresSeconds * 1000).toISOString(),
  };
}

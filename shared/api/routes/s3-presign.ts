import { PutObjectCommand } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../storage/s3.ts';
import type { BlobStore } from '../../storage/types.ts';

export interface SignedUpload {
  url: string;
  method: 'PUT';
  /** Headers the client must send exactly as given: they are part of the signature. */
  headers: Record<string, string>;
}

/**
 * A presigned PUT for the S3 bucket, or undefined for any other store. Content-Length (the declared
 * size, checked against the limit by the caller) and Content-Type are signed, so the upload cannot
 * be larger or of another type than declared; the key is chosen by the server; the URL expires.
 */
export async function presignS3Put(
  store: BlobStore,
  request: { key: string; size: number; contentType: string; expiresSeconds: number },
): Promise<SignedUpload | undefined> {
  if (!(store instanceof S3BlobStore)) return undefined;
  // Loaded on first use: the presigner is only needed by this route.
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  const command = new PutObjectCommand({
    Bucket: store.bucket,
    Key: request.key,
    ContentLength: request.size,
    ContentType: request.contentType,
  });
  const url = await getSignedUrl(store.client, command, {
    expiresIn: request.expiresSeconds,
    signableHeaders: new Set(['content-length', 'content-type']),
  });
  return {
    url,
    method: 'PUT',
    headers: { 'content-length': String(request.size), 'content-type': request.contentType },
  };
}

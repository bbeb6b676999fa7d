import { open } from 'node:fs/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { NotFoundError } from '../errors.ts';
import { assertSafeKey, assertSafePrefix } from './keys.ts';
import type { StagedFile } from './staging.ts';
import type { BlobInfo, BlobStore } from './types.ts';

export interface S3BlobStoreOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, s3rver); default AWS. */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Static credentials; default the SDK's provider chain (the Lambda role in AWS). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Objects per ListObjectsV2 page (S3's maximum and default: 1000). */
  pageSize?: number;
  /** An existing client to share instead of creating one. */
  client?: S3Client;
}

/** DeleteObjects takes at most 1000 keys a request. */
const DELETE_BATCH = 1000;

/**
 * The bucket on S3 (or any S3-protocol server). The client is created once, here, from the options.
 *
 * @example new S3BlobStore({ bucket: 'dropqa-docs', region: 'eu-west-1' })
 */
export class S3BlobStore implements BlobStore {
  readonly bucket: string;
  readonly client: S3Client;
  private readonly pageSize: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.pageSize = options.pageSize ?? 1000;
    this.client =
      options.client ??
      new S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle,
        credentials: options.credentials,
        // The SDK's default (WHEN_SUPPORTED) puts a CRC32 of the empty body into every presigned PUT
        // URL (`x-amz-checksum-crc32=AAAAAA==`), so S3 refuses the real upload; checksums are sent
        // where an operation requires one, and putFile gives its SHA-256 itself.
        requestChecksumCalculation: 'WHEN_REQUIRED',
      });
  }

  async put(key: string, body: Uint8Array | string, options?: { contentType?: string }): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: options?.contentType }),
    );
  }

  async putFile(key: string, file: StagedFile, options?: { contentType?: string }): Promise<void> {
    assertSafeKey(key);
    // Opened first: a missing file is this call's error, not a stream's unhandled one.
    const handle = await open(file.path);
    try {
      // With the checksum given, the SDK sends the stream as is (no aws-chunked body with a trailing
      // checksum) and S3 refuses bytes that do not match it. One PutObject takes up to 5 GB.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: handle.createReadStream({ autoClose: false }),
          ContentLength: file.size,
          ChecksumSHA256: Buffer.from(file.hash, 'hex').toString('base64'),
          ContentType: options?.contentType,
        }),
      );
    } finally {
      await handle.close();
    }
  }

  async get(key: string): Promise<Uint8Array> {
    assertSafeKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!result.Body) throw new NotFoundError(`No object at key ${key}`);
      return await result.Body.transformToByteArray();
    } catch (error) {
      if (isMissing(error)) throw new NotFoundError(`No object at key ${key}`);
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    assertSafeKey(key);
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: result.ContentLength ?? 0,
        contentType: result.ContentType,
        ...(result.LastModified ? { lastModified: result.LastModified } : {}),
      };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    let batch: string[] = [];
    let count = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0];
        throw new Error(
          `Could not delete ${failed.length} of ${batch.length} objects under ${prefix}: ${first?.Key} ${first?.Code} ${first?.Message}`,
        );
      }
      count += batch.length;
      batch = [];
    };
    // List everything first: deleting while paging could disturb the continuation token.
    const keys: string[] = [];
    for await (const { key } of this.list(prefix)) keys.push(key);
    for (const key of keys) {
      batch.push(key);
      if (batch.length >= DELETE_BATCH) await flush();
    }
    await flush();
    return count;
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    assertSafePrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix || undefined,
          MaxKeys: this.pageSize,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key !== undefined) yield { key: item.Key, size: item.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

function isMissing(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

import { resolve } from 'node:path';
import type { Config } from '../config/index.ts';
import { ConfigError } from '../errors.ts';
import { LocalBlobStore } from './local.ts';
import type { BlobStore } from './types.ts';

/**
 * The blob store the configuration names: a folder (`storage.dir`, default `<dataDir>/bucket`) or an
 * S3 bucket (`storage.bucket`, with optional endpoint, path-style addressing and static credentials).
 * The S3 store (and the AWS SDK's S3 client) is loaded only for an S3 bucket: importing it took
 * ~0.1-0.17 s of a local server's start.
 */
export async function createBlobStore(config: Config): Promise<BlobStore> {
  const storage = config.storage;
  if (storage.kind === 'local') return new LocalBlobStore(storage.dir ?? resolve(config.dataDir, 'bucket'));
  if (!storage.bucket) throw new ConfigError('storage.bucket is required when storage.kind is s3');
  if (!!storage.accessKeyId !== !!storage.secretAccessKey)
    throw new ConfigError('storage.accessKeyId and storage.secretAccessKey must be set together');
  const { S3BlobStore } = await import('./s3.ts');
  return new S3BlobStore({
    bucket: storage.bucket,
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    credentials:
      storage.accessKeyId && storage.secretAccessKey
        ? { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey }
        : undefined,
  });
}

import type { StagedFile } from './staging.ts';

/** An object in the bucket. */
export interface BlobInfo {
  key: string;
  size: number;
  contentType?: string;
  /** When the object was last written (`head` only; start-up recovery hashes only newer objects). */
  lastModified?: Date;
}

/**
 * The bucket: a local folder or S3. Keys are `/`-separated relative paths; implementations reject
 * keys that are absolute or climb out (`..`).
 */
export interface BlobStore {
  put(key: string, body: Uint8Array | string, options?: { contentType?: string }): Promise<void>;
  /**
   * Writes a staged file (see staging.ts) as the object, streaming it: an upload of any size never
   * passes through memory whole. S3 checks the bytes it receives against the staged SHA-256.
   */
  putFile(key: string, file: StagedFile, options?: { contentType?: string }): Promise<void>;
  /** Throws `NotFoundError` when the key does not exist. */
  get(key: string): Promise<Uint8Array>;
  head(key: string): Promise<BlobInfo | undefined>;
  delete(key: string): Promise<void>;
  /** Deletes every object under the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  list(prefix: string): AsyncIterable<BlobInfo>;
}

import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isOutOfSpace, OutOfSpaceError } from '../errors.ts';

/**
 * A file written to local disk as it arrived, before it enters the bucket: uploads are staged so that
 * no request ever holds a file in memory and nothing refused reaches the bucket.
 */
export interface StagedFile {
  path: string;
  size: number;
  /** SHA-256 of the bytes, hex: what Register computes for the same bytes. */
  hash: string;
}

/** The staging folder of a data folder: `<dataDir>/staging` (only uploads in flight live there). */
export function stagingDir(dataDir: string): string {
  return resolve(dataDir, 'staging');
}

/**
 * Streams `source` into a new file under `dir`, hashing and counting it on the way, with the
 * source's backpressure (memory stays at a chunk or two); `onChunk` hears each chunk's size as it
 * passes (to enforce a limit over several files). A source that errors or is destroyed leaves no
 * file behind; a full disk throws `OutOfSpaceError`.
 *
 * @example const staged = await stageStream(stagingDir(config.dataDir), fileStream); // { path, size, hash }
 */
export async function stageStream(
  dir: string,
  source: Readable,
  onChunk?: (bytes: number) => void,
): Promise<StagedFile> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.upload`);
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      onChunk?.(chunk.length);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, tap, createWriteStream(path));
  } catch (error) {
    await removeStaged([{ path }]);
    throw isOutOfSpace(error) ? new OutOfSpaceError({ cause: error }) : error;
  }
  return { path, size, hash: hash.digest('hex') };
}

/** Removes staged files (those already gone are fine). */
export async function removeStaged(files: readonly { path: string }[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file.path, { force: true })));
}

/**
 * Empties the staging folder: what is there when a process opens its data folder was left by a
 * process that stopped mid-upload (only the process holding the data folder stages there).
 */
export async function clearStaging(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

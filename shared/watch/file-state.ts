import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

/** The file's status, not following a link; undefined when it is gone. */
export async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** True when nothing was written to (or renamed onto) the file between the two looks. */
export function sameState(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Waits until the file has been left alone for `quietMs` and returns its status then (undefined
 * when it went away). The change time is what is watched: every write, and the rename of an
 * editor's temp file into place, sets it, and no copy tool preserves it (unlike the modification
 * time). A change time ahead of the clock counts as quiet once the file stayed the same for
 * `quietMs`.
 *
 * @example const info = await quietState('/docs/a.md', 2000); // resolves 2 s after the last write
 */
export async function quietState(path: string, quietMs: number): Promise<Stats | undefined> {
  let info = await statOf(path);
  while (info) {
    const age = Date.now() - info.ctimeMs;
    if (age >= quietMs) return info;
    await new Promise((resolve) => setTimeout(resolve, age >= 0 ? quietMs - age : quietMs));
    const next = await statOf(path);
    if (age < 0 && next && sameState(info, next)) return next;
    info = next;
  }
  return undefined;
}

/** SHA-256 of a file, hex, read as a stream (the same as `contentHash` of its bytes). */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import {
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { isOutOfSpace, NotFoundError, OutOfSpaceError, ValidationError } from '../errors.ts';
import { contentTypeOf } from './content-type.ts';
import { assertSafeKey, assertSafePrefix } from './keys.ts';
import type { StagedFile } from './staging.ts';
import type { BlobInfo, BlobStore } from './types.ts';

/** Suffix of in-flight writes; never listed, never read. */
const TEMP_SUFFIX = '.dropqa-tmp';

/**
 * The bucket as a folder: each key is a file under `root`. Writes go to a temporary file beside the
 * target and are renamed into place, so a reader never sees half an object. Listing is sorted by
 * key bytes and treats the prefix as a plain string prefix, exactly like S3.
 *
 * @example const store = new LocalBlobStore('./.dropqa/bucket'); await store.put('a/b.md', '# Hi');
 */
export class LocalBlobStore implements BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: Uint8Array | string, _options?: { contentType?: string }): Promise<void> {
    await this.write(key, (temp) => writeFile(temp, body));
  }

  async putFile(key: string, file: StagedFile, _options?: { contentType?: string }): Promise<void> {
    // copyFile copies in the kernel (copy_file_range): no byte of the file passes through memory.
    await this.write(key, (temp) => copyFile(file.path, temp));
  }

  /** Writes a temporary file beside the target with `fill`, then renames it into place. */
  private async write(key: string, fill: (temp: string) => Promise<void>): Promise<void> {
    const path = this.pathOf(key);
    const temp = join(dirname(path), `.${randomUUID()}${TEMP_SUFFIX}`);
    try {
      // A concurrent delete may prune the freshly made folder before the write lands: make it again.
      for (let attempt = 1; ; attempt++) {
        try {
          await mkdir(dirname(path), { recursive: true });
          await fill(temp);
          break;
        } catch (error) {
          if (attempt >= 3 || !isCode(error, 'ENOENT')) throw error;
        }
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      if (isCode(error, 'EISDIR', 'ENOTDIR', 'EEXIST'))
        throw new ValidationError(`Object key ${key} conflicts with an existing prefix or object`, {
          cause: error,
        });
      if (isOutOfSpace(error)) throw new OutOfSpaceError({ cause: error });
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if (isCode(error, 'ENOENT', 'EISDIR', 'ENOTDIR')) throw new NotFoundError(`No object at key ${key}`);
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      if (!info.isFile()) return undefined;
      return { key, size: info.size, contentType: contentTypeOf(key), lastModified: info.mtime };
    } catch (error) {
      if (isCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      await unlink(path);
    } catch (error) {
      if (isCode(error, 'ENOENT', 'ENOTDIR', 'EISDIR')) return;
      throw error;
    }
    await this.pruneEmptyParents(dirname(path));
  }

  async deletePrefix(prefix: string): Promise<number> {
    let count = 0;
    for await (const { key } of this.list(prefix)) {
      await this.delete(key);
      count++;
    }
    return count;
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    assertSafePrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    const found: BlobInfo[] = [];
    await this.walk(base, prefix, found);
    found.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
    yield* found;
  }

  private async walk(dir: string, prefix: string, found: BlobInfo[]): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir ? join(this.root, ...dir.split('/')) : this.root, { withFileTypes: true });
    } catch (error) {
      if (isCode(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      const key = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // Only descend where a key under this folder can still start with the prefix.
        if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) await this.walk(key, prefix, found);
      } else if (entry.isFile() && !entry.name.endsWith(TEMP_SUFFIX) && key.startsWith(prefix)) {
        const info = await stat(join(this.root, ...key.split('/'))).catch(() => undefined);
        if (info) found.push({ key, size: info.size });
      }
    }
  }

  /** Removes folders left empty by a delete, up to (not including) the root. */
  private async pruneEmptyParents(dir: string): Promise<void> {
    let current = dir;
    while (current.startsWith(this.root + sep)) {
      try {
        await rmdir(current);
      } catch {
        return;
      }
      current = dirname(current);
    }
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return join(this.root, ...key.split('/'));
  }
}

function isCode(error: unknown, ...codes: string[]): boolean {
  return (
    typeof error === 'object' && error !== null && codes.includes((error as { code?: string }).code ?? '')
  );
}

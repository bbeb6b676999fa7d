import { statSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import type { Config } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';

/** A watched folder: where it is and the key prefix its files' documents get. */
export interface WatchedFolder {
  /** The absolute path. */
  dir: string;
  /** `watch/<folder name>/`. */
  prefix: string;
}

/**
 * The folders to watch, resolved: each must exist and be a directory, and two folders may not share
 * a name (their keys would collide).
 *
 * @throws ConfigError naming the folder.
 * @example watchedFolders(['./docs']) // [{ dir: '/home/me/docs', prefix: 'watch/docs/' }]
 */
export function watchedFolders(directories: readonly string[]): WatchedFolder[] {
  const byPrefix = new Map<string, WatchedFolder>();
  for (const directory of directories) {
    const dir = resolve(directory);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new ConfigError(`watch.directories: ${directory} is not a folder`);
    const prefix = `watch/${basename(dir)}/`;
    const other = byPrefix.get(prefix);
    if (other && other.dir !== dir) {
      throw new ConfigError(
        `watch.directories: ${other.dir} and ${dir} have the same name; their documents would share keys under ${prefix}`,
      );
    }
    byPrefix.set(prefix, { dir, prefix });
  }
  return [...byPrefix.values()];
}

/** Which files of a watched folder are ingested, from `watch.extensions` and `watch.ignore`. */
export interface WatchRules {
  /** True when the path (relative to its folder, `/`-separated) is never looked at, file or folder. */
  ignored(relativePath: string): boolean;
  /** True when the file is ingested: not ignored and of a watched extension. */
  accepts(relativePath: string): boolean;
}

/** The rules of `watch.extensions` and `watch.ignore` (globs: without `/` on the name, with `/` on the path). */
export function watchRules(watch: Config['watch']): WatchRules {
  const matchers = watch.ignore.map((pattern) =>
    picomatch(pattern, { dot: true, basename: !pattern.includes('/') }),
  );
  const extensions = new Set(watch.extensions.map((ext) => ext.replace(/^\./, '').toLowerCase()));
  const ignored = (path: string) => path !== '' && matchers.some((match) => match(path));
  return {
    ignored,
    accepts(path) {
      const dot = path.lastIndexOf('.');
      return (
        !ignored(path) && dot > path.lastIndexOf('/') && extensions.has(path.slice(dot + 1).toLowerCase())
      );
    },
  };
}

/** The folder a path is in and its path inside, `/`-separated; undefined when in none. */
export function locate(
  folders: readonly WatchedFolder[],
  path: string,
): { folder: WatchedFolder; relativePath: string } | undefined {
  const absolute = resolve(path);
  for (const folder of folders) {
    const inside = relative(folder.dir, absolute);
    if (inside.startsWith('..') || resolve(folder.dir, inside) !== absolute) continue;
    return { folder, relativePath: inside.split(sep).join('/') };
  }
  return undefined;
}

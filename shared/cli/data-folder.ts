import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../config/index.ts';
import { NotFoundError } from '../errors.ts';
import { readServerLock, type ServerLock } from '../runtime/lock.ts';

/** Where the CLI's data is: a running server's, or the embedded database's folder. */
export type DataFolder =
  | { kind: 'server'; dataDir: string; lock: ServerLock }
  | { kind: 'in-process'; dataDir: string };

/**
 * Where `dataDir` came from, for messages: `DROPQA_DATA_DIR`, the configuration file, or the default
 * `./.dropqa` of the working directory.
 */
export function dataDirOrigin(config: Pick<Config, 'dataDir'>, env = process.env): string {
  if (env.DROPQA_DATA_DIR) return 'from DROPQA_DATA_DIR';
  if (config.dataDir !== './.dropqa') return 'dataDir of the configuration file';
  return `the default ./.dropqa of ${process.cwd()}; DROPQA_DATA_DIR is not set`;
}

/**
 * The data folder a command works on. A read-only command (`create: false`) never creates one: with
 * no running server and no embedded database in `dataDir`, it fails with a message naming the folder
 * it looked in and how to point it elsewhere. An external database (`database.url`, the Data API)
 * needs no folder.
 *
 * @example locateData(config, { create: false }) // { kind: 'in-process', dataDir: '/home/me/.dropqa' }
 */
export function locateData(
  config: Pick<Config, 'dataDir' | 'database'>,
  options: { create: boolean },
): DataFolder {
  const dataDir = resolve(config.dataDir);
  const lock = readServerLock(config.dataDir);
  if (lock) return { kind: 'server', dataDir, lock };
  const external = Boolean(config.database.url || config.database.dataApi);
  if (!options.create && !external && !existsSync(join(dataDir, 'db'))) {
    throw new NotFoundError(
      `No DropQA data in ${dataDir} (${dataDirOrigin(config)}). ` +
        'Point DROPQA_DATA_DIR (or dataDir in dropqa.config.yaml) at the folder your documents were ingested into, ' +
        'or ingest some here first: dropqa ingest <files or folders>.',
    );
  }
  return { kind: 'in-process', dataDir };
}

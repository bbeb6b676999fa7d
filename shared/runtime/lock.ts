import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.ts';

/** Written by a running server into its data folder, so other processes talk to it instead of opening the database. */
export interface ServerLock {
  pid: number;
  url: string;
  /** The access token the server requires (docs/security.md); the file is readable by its owner only. */
  token?: string;
  /** Sent as `x-dropqa-control` by a process of the folder's owner to add a watched folder (`dropqa watch`). */
  controlKey?: string;
}

/** The header that carries a server's control key. */
export const CONTROL_HEADER = 'x-dropqa-control';

const lockPath = (dataDir: string) => join(dataDir, 'server.json');

/** The live server using this data folder, if any (a lock left by a dead process is ignored). */
export function readServerLock(dataDir: string): ServerLock | undefined {
  const path = lockPath(dataDir);
  if (!existsSync(path)) return undefined;
  try {
    const lock = JSON.parse(readFileSync(path, 'utf8')) as ServerLock;
    process.kill(lock.pid, 0);
    return lock;
  } catch {
    return undefined;
  }
}

/** Throws when a live server uses this data folder: its database is open in that process, and only there. */
export function assertNoServer(dataDir: string): void {
  const running = readServerLock(dataDir);
  if (running)
    throw new ConfigError(`Another DropQA server (pid ${running.pid}) is using ${dataDir} at ${running.url}`);
}

export function writeServerLock(dataDir: string, lock: ServerLock): void {
  writeFileSync(lockPath(dataDir), JSON.stringify(lock), { mode: 0o600 });
}

export function removeServerLock(dataDir: string): void {
  rmSync(lockPath(dataDir), { force: true });
}

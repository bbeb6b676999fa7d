import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readServerLock } from '#shared/runtime/lock.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', 'bin', 'dropqa.js');
/** GNU time reports a child's user + system CPU, its threads included (Linux); absent elsewhere. */
const TIME = '/usr/bin/time';

/** A `dropqa serve` started on a data folder: seconds until its health endpoint answered, and how to stop it. */
export interface RunningServer {
  seconds: number;
  /** Where it listens (loopback). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `dropqa serve` on a data folder in a process of its own, as a user would, and resolves once
 * its health endpoint answers and its lock names it (so the CLI talks to it).
 */
export async function startServer(dataDir: string): Promise<RunningServer> {
  const port = 18000 + Math.floor(Math.random() * 1000);
  const began = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir, PORT: String(port) },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  try {
    for (;;) {
      if (performance.now() - began > 120_000) throw new Error('server did not start within 120 s');
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok && readServerLock(dataDir))
        return { seconds: (performance.now() - began) / 1000, url: `http://127.0.0.1:${port}`, stop };
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Seconds from starting `dropqa serve` on a data folder until its health endpoint answers, and until
 * it answered a first full-text search for `query` (which may wait for in-memory indexes); the
 * server is stopped again.
 */
export async function timeServerStart(
  dataDir: string,
  query = 'budget',
): Promise<{ ready: number; firstSearch: number }> {
  const began = performance.now();
  const server = await startServer(dataDir);
  try {
    const response = await fetch(`${server.url}/api/search?kind=fulltext&q=${encodeURIComponent(query)}`);
    if (!response.ok) throw new Error(`first search answered ${response.status}`);
    await response.json();
    return { ready: server.seconds, firstSearch: (performance.now() - began) / 1000 };
  } finally {
    await server.stop();
  }
}

/**
 * One `dropqa <args>` from the shell on a data folder (in-process unless a server runs on it): wall
 * seconds, and CPU seconds (user + system, threads included) where GNU time is installed.
 */
export async function timeCommand(dataDir: string, args: string[]): Promise<{ wall: number; cpu?: number }> {
  const timed = existsSync(TIME);
  const [file, argv] = timed
    ? [TIME, ['-f', 'CPU %U %S', process.execPath, BIN, ...args]]
    : [process.execPath, [BIN, ...args]];
  const began = performance.now();
  const { stderr } = await run(file, argv, {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir },
    maxBuffer: 64 * 2 ** 20,
  }).catch((error: Error) => {
    throw new Error(`dropqa ${args.join(' ')} failed: ${error.message}`);
  });
  const wall = (performance.now() - began) / 1000;
  const cpu = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  return { wall, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined };
}

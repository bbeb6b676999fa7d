import { spawn } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', 'bin', 'dropqa.js');

/**
 * Seconds from starting `dropqa serve` on a data folder until its health endpoint answers, as a user
 * would see it start; the server is stopped again.
 */
export async function timeServerStart(dataDir: string): Promise<number> {
  const port = 18000 + Math.floor(Math.random() * 1000);
  const began = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir, PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - began > 60_000) throw new Error('server did not start within 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return (performance.now() - began) / 1000;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

/** Seconds one `dropqa <args>` takes from the shell on a data folder (in-process: no server running). */
export async function timeCommand(dataDir: string, args: string[]): Promise<number> {
  const began = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`dropqa ${args.join(' ')} exited with ${code}`);
  return (performance.now() - began) / 1000;
}

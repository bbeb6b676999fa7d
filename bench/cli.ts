/**
 * `node bin/run-ts.js bench/cli.ts [--data <dir>] [--docs N] [--runs N]`: how long a `dropqa`
 * command takes from the shell, as a user runs it: `--help`, `status` and `search` on a data folder
 * of N generated documents (default 1,000; 5 paragraphs each, ingested once by the real pipeline and
 * kept in `--data` so later runs skip it), in-process and with a server running on the folder.
 * Prints the median wall and CPU time (user + system, the command's process and its threads) of
 * each, and writes bench/results/cli-<time>.json.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '#shared/config/index.ts';
import { readServerLock } from '#shared/runtime/lock.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { generateDocument } from './corpus.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '..', 'bin', 'dropqa.js');
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const DOCS = Number(option('--docs') ?? 1000);
const RUNS = Number(option('--runs') ?? 3);
const dataDir = option('--data') ?? mkdtempSync(join(tmpdir(), 'dropqa-bench-cli-'));

/** Ingests the generated documents unless the folder already holds them. */
async function prepare(): Promise<void> {
  if (existsSync(join(dataDir, 'db'))) return;
  const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
  const files = Array.from({ length: DOCS }, (_, i) => {
    const doc = generateDocument(i, 5);
    return { key: `bench/${doc.name}`, filename: doc.name, bytes: new TextEncoder().encode(doc.text) };
  });
  const started = performance.now();
  const outcomes = await rt.ingest.ingest(files);
  await rt.close();
  const failed = outcomes.filter((o) => o.status === 'failed').length;
  process.stderr.write(
    `ingested ${DOCS} documents in ${((performance.now() - started) / 1000).toFixed(1)} s (${failed} failed)\n`,
  );
}

/** One run of the CLI: wall seconds, and CPU seconds read from /proc of the finished child (Linux) or undefined. */
async function once(command: string[]): Promise<{ wall: number; cpu?: number }> {
  const started = performance.now();
  // `time -f` reports the child's user + system CPU, threads included.
  const timed = existsSync('/usr/bin/time');
  const argv = timed
    ? ['/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, BIN, ...command]]
    : [process.execPath, [BIN, ...command]];
  const { stderr } = await run(argv[0] as string, argv[1] as string[], {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir },
    maxBuffer: 64 * 2 ** 20,
  });
  const wall = (performance.now() - started) / 1000;
  const cpu = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  return { wall, cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function measure(command: string[]): Promise<{ wall: number; cpu: number }> {
  await once(command); // the first run may build the CLI bundle
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(command));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu ?? NaN)) };
}

/** `dropqa serve` on the folder in a process of its own; resolves once its lock names its URL. */
async function startServer(): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir, PORT: '0' },
    stdio: 'ignore',
  });
  for (let waited = 0; !readServerLock(dataDir); waited += 100) {
    if (waited > 120_000 || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
}

mkdirSync(dataDir, { recursive: true });
await prepare();
const commands: [string, string[]][] = [
  ['--help', ['--help']],
  ['status', ['status']],
  ['search', ['search', 'budget', '--kind', 'fulltext']],
];
const rows: { command: string; where: string; wall: number; cpu: number; target: string }[] = [];
for (const [name, command] of commands) {
  rows.push({ command: name, where: 'in-process', ...(await measure(command)), target: '< 2 s' });
}
const stop = await startServer();
try {
  for (const [name, command] of commands.slice(1)) {
    rows.push({ command: name, where: 'server running', ...(await measure(command)), target: '< 1 s' });
  }
} finally {
  await stop();
}

const load = (await import('node:os')).loadavg()[0]?.toFixed(1);
process.stdout.write(
  `\ndropqa from the shell, ${DOCS} documents, median of ${RUNS} runs (load ${load} on ${(await import('node:os')).cpus().length} cores)\n\n`,
);
process.stdout.write('| command | where          | wall    | CPU     | target |\n');
process.stdout.write('| ------- | -------------- | ------- | ------- | ------ |\n');
for (const row of rows) {
  process.stdout.write(
    `| ${row.command.padEnd(7)} | ${row.where.padEnd(14)} | ${`${row.wall.toFixed(2)} s`.padEnd(7)} | ${`${row.cpu.toFixed(2)} s`.padEnd(7)} | ${row.target.padEnd(6)} |\n`,
  );
}
const results = join(import.meta.dirname, 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, `cli-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
  JSON.stringify({ docs: DOCS, runs: RUNS, load, rows }, null, 2),
);

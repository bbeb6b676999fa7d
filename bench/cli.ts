/**
 * `node bin/run-ts.js bench/cli.ts [--data <dir>] [--docs N] [--runs N]`: how long a `dropqa`
 * command takes from the shell, as a user runs it: `--help`, `status` and `search` on a data folder
 * of N generated documents (default 1,000; 5 paragraphs each, ingested once by the real pipeline and
 * kept in `--data` so later runs skip it), in-process and with a server running on the folder.
 * Prints the median wall and CPU time (user + system, the command's process and its threads) of
 * each, and writes bench/results/cli-<time>.json.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { generateDocument } from './corpus.ts';
import { startServer, timeCommand } from './processes.ts';

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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function measure(command: string[]): Promise<{ wall: number; cpu: number }> {
  await timeCommand(dataDir, command); // the first run may build the CLI bundle
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timeCommand(dataDir, command));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu ?? NaN)) };
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
const server = await startServer(dataDir);
try {
  for (const [name, command] of commands.slice(1)) {
    rows.push({ command: name, where: 'server running', ...(await measure(command)), target: '< 1 s' });
  }
} finally {
  await server.stop();
}

const load = loadavg()[0]?.toFixed(1);
process.stdout.write(
  `\ndropqa from the shell, ${DOCS} documents, median of ${RUNS} runs (load ${load} on ${cpus().length} cores; server start ${server.seconds.toFixed(1)} s)\n\n`,
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

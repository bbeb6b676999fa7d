/**
 * Offline table answers on a large sheet (issue 31: < 200 ms p95 on 10,000 rows): generates a CSV of
 * BENCH_TABLE_ROWS rows (default 10,000; players, teams, seasons, goals), ingests it alone, then
 * asks questions of each shape the planner knows (lookup, count, highest, sum, average, first,
 * next, no shape) in mode `auto`, and prints p50 / p95 per shape and over all.
 * `node bin/run-ts.js bench/tables.ts` (BENCH_TABLE_QUESTIONS per shape, default 20).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#shared/config/index.ts';
import { ask } from '#shared/qa/ask.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';

const ROWS = Number(process.env.BENCH_TABLE_ROWS ?? 10_000);
const PER_SHAPE = Number(process.env.BENCH_TABLE_QUESTIONS ?? 20);
const TEAMS = [
  'Falcons',
  'Harbour Kings',
  'Red Foxes',
  'North Stars',
  'River Otters',
  'Iron Wolves',
  'Blue Herons',
];
const CITIES = ['Lisbon', 'Porto', 'Aveiro', 'Braga', 'Faro', 'Coimbra', 'Évora'];
const GIVEN = ['Ana', 'Bruno', 'Carla', 'Duarte', 'Eva', 'Filipe', 'Gil', 'Helena', 'Ivo', 'Joana', 'Luís'];
const FAMILY = ['Almeida', 'Barros', 'Costa', 'Dias', 'Esteves', 'Faria', 'Gomes', 'Henriques', 'Lopes'];

/** Row i of the sheet: a unique player name (a serial number keeps names apart), and numbers from i. */
function row(i: number): string[] {
  const name = `${GIVEN[i % GIVEN.length]} ${FAMILY[(i * 7) % FAMILY.length]} ${i + 1}`;
  return [
    name,
    TEAMS[(i * 3) % TEAMS.length] ?? '',
    CITIES[(i * 5) % CITIES.length] ?? '',
    String(1990 + (i % 35)),
    String((i * 37) % 61),
    String((i * 11) % 29),
  ];
}

function sheet(): string {
  const lines = ['Player,Team,City,Season,Goals,Assists'];
  for (let i = 0; i < ROWS; i++) lines.push(row(i).join(','));
  return `${lines.join('\n')}\n`;
}

/** Questions of one shape; `k` varies the row or value asked about. */
const SHAPES: Record<string, (k: number) => string> = {
  lookup: (k) => `How many goals did ${row((k * 487) % ROWS)[0]} score?`,
  count: (k) => `How many players are from ${CITIES[k % CITIES.length]}?`,
  highest: (k) => `Which player scored the most goals for the ${TEAMS[k % TEAMS.length]}?`,
  sum: (k) => `What is the total of assists in ${CITIES[k % CITIES.length]}?`,
  average: (k) => `What is the average goals of the ${TEAMS[k % TEAMS.length]}?`,
  first: (k) => `Who was the first player of the ${TEAMS[k % TEAMS.length]}?`,
  next: (k) => `Which player is listed after ${row((k * 613) % ROWS)[0]}?`,
  'no shape': (k) => `Is ${row((k * 211) % ROWS)[0]} more than 200 goals ahead?`,
};

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-bench-tables-'));
try {
  const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
  const bytes = new TextEncoder().encode(sheet());
  process.stderr.write(`ingesting a ${ROWS}-row CSV (${(bytes.length / 1e6).toFixed(1)} MB)...\n`);
  const ingestStarted = performance.now();
  await rt.ingest.ingest([{ key: 'bench/players.csv', filename: 'players.csv', bytes }], () => {});
  const ingestMs = performance.now() - ingestStarted;
  const timeAsk = async (question: string) => {
    const started = performance.now();
    let table = false;
    for await (const event of ask(rt.qa, askRequestSchema.parse({ question, mode: 'auto' }))) {
      if (event.type === 'done') table = event.data.response.answer.startsWith('Offline table answer');
      if (event.type === 'error') throw new Error(event.data.message);
    }
    return { ms: performance.now() - started, table };
  };
  await timeAsk(SHAPES.lookup?.(0) ?? '');
  const all: number[] = [];
  const lines = [
    '| shape | questions | table answers | p50 ms | p95 ms |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const [shape, make] of Object.entries(SHAPES)) {
    const runs = [];
    for (let k = 1; k <= PER_SHAPE; k++) runs.push(await timeAsk(make(k)));
    const ms = runs.map((r) => r.ms);
    all.push(...ms);
    lines.push(
      `| ${shape} | ${runs.length} | ${runs.filter((r) => r.table).length} | ${percentile(ms, 0.5).toFixed(0)} | ${percentile(ms, 0.95).toFixed(0)} |`,
    );
  }
  lines.push(
    `| all | ${all.length} |  | ${percentile(all, 0.5).toFixed(0)} | ${percentile(all, 0.95).toFixed(0)} |`,
  );
  console.log(
    `Offline table answers, ${ROWS}-row sheet (ingest ${(ingestMs / 1000).toFixed(1)} s; target p95 < 200 ms)\n`,
  );
  console.log(lines.join('\n'));
  await rt.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

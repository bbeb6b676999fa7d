/**
 * Versions benchmark: the diff of two versions of a 200-section document (3 paragraphs each, about
 * one section in ten edited, renamed, moved, added or removed), through the database as
 * `GET /api/documents/{id}/diff` reads it. Target: < 200 ms.
 *
 * Alone: `node bin/run-ts.js bench/versions.ts` (BENCH_DIFF_SECTIONS, default 200).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { diffVersions } from '#shared/diff/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

type Row = { metric: string; value: string; target: string };

const SECTIONS = Number(process.env.BENCH_DIFF_SECTIONS ?? 200);
const RUNS = 20;

/** A long Markdown manual; `edited` applies the second version's changes. */
export function manual(sections: number, edited: boolean): string {
  const parts = ['# Operations manual\n'];
  const order = Array.from({ length: sections }, (_, i) => i);
  // Version 2 moves every 40th section to the end.
  const moved = edited ? order.filter((i) => i % 40 === 7) : [];
  for (const i of [...order.filter((i) => !moved.includes(i)), ...moved]) {
    if (edited && i % 50 === 13) continue; // removed
    const title = edited && i % 25 === 3 ? `Procedure ${i} (revised)` : `Procedure ${i}`;
    parts.push(`## ${title}\n`);
    for (let p = 0; p < 3; p += 1) {
      const days = edited && i % 10 === 5 && p === 1 ? 30 + i : 14 + i;
      parts.push(
        `Step ${p} of procedure ${i}: the operator checks unit ${i * 7 + p} and files the report within ${days} days, signed by the shift lead.\n`,
      );
    }
    if (edited && i % 50 === 21) parts.push(`## Appendix ${i}\n\nA new appendix about audit ${i}.\n`);
  }
  return parts.join('\n');
}

/** Ingests both versions into `rt` and times the diff; returns the table rows. */
export async function benchVersions(rt: Runtime, results: Record<string, unknown>): Promise<Row[]> {
  const key = `bench-diff/manual-${Date.now().toString(36)}.md`;
  const encode = (text: string) => new TextEncoder().encode(text);
  const [first] = await rt.ingest.ingest([{ key, bytes: encode(manual(SECTIONS, false)) }]);
  await rt.ingest.ingest([{ key, bytes: encode(manual(SECTIONS, true)) }]);
  const id = first?.documentId ?? '';
  const times: number[] = [];
  let summary: unknown;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    summary = (await diffVersions(rt.db, ALL_COLLECTIONS, id)).summary;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(RUNS / 2)] ?? 0;
  const max = times.at(-1) ?? 0;
  results.versions = { sections: SECTIONS, diffP50Ms: p50, diffMaxMs: max, summary };
  return [
    {
      metric: `diff of 2 versions, ${SECTIONS} sections (p50 / max of ${RUNS})`,
      value: `${p50.toFixed(0)} / ${max.toFixed(0)} ms`,
      target: '< 200 ms',
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-bench-versions-'));
  const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
  try {
    const results: Record<string, unknown> = {};
    for (const row of await benchVersions(rt, results))
      console.log(`| ${row.metric} | ${row.value} | ${row.target} |`);
    console.log(JSON.stringify(results.versions));
  } finally {
    await rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

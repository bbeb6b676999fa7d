/**
 * Lifecycle benchmark: re-uploading unchanged documents (target: 1,000 in under 10 s, with no parse
 * and no model work) and a burst of 50 concurrent distinct uploads plus 5 concurrent duplicates of
 * one file (exactly 51 documents of one version each).
 *
 * Inside `npm run bench` it reuses the corpus just ingested; alone
 * (`node bin/run-ts.js bench/lifecycle.ts`) it ingests BENCH_DOCS (default 1000) small documents
 * first.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import type { IngestFile } from '#shared/pipeline/ingest.ts';
import type { PipelineEvent } from '#shared/pipeline/types.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

type Row = { metric: string; value: string; target: string };

const BURST_DISTINCT = 50;
const BURST_DUPLICATES = 5;

/**
 * Runs both measurements on an open runtime whose `files` are already ingested; records them in
 * `results.lifecycle` and returns the table rows.
 */
export async function benchLifecycle(
  rt: Runtime,
  files: IngestFile[],
  results: Record<string, unknown>,
): Promise<Row[]> {
  const steps = new Map<string, number>();
  const count = (event: PipelineEvent) => {
    if (event.type === 'step-started') steps.set(event.step, (steps.get(event.step) ?? 0) + 1);
  };
  const started = performance.now();
  const outcomes = await rt.ingest.ingest(files, undefined, count);
  const reuploadSeconds = (performance.now() - started) / 1000;
  const unchanged = outcomes.filter((o) => o.status === 'unchanged').length;
  const workSteps = [...steps].filter(([step]) => step !== 'Register').reduce((n, [, c]) => n + c, 0);

  const tag = Date.now().toString(36);
  const distinct = Array.from({ length: BURST_DISTINCT }, (_, i) => ({
    key: `burst-${tag}/doc-${i}.md`,
    bytes: new TextEncoder().encode(`# Burst ${i}\n\nA document uploaded in a burst, number ${i}.\n`),
  }));
  const duplicate = {
    key: `burst-${tag}/same.md`,
    bytes: new TextEncoder().encode('# Same\n\nUploaded five times at once.\n'),
  };
  const burstStarted = performance.now();
  await Promise.all(
    [...distinct, ...Array.from({ length: BURST_DUPLICATES }, () => duplicate)].map((file) =>
      rt.ingest.submit([file]),
    ),
  );
  await rt.ingest.idle();
  const burstSeconds = (performance.now() - burstStarted) / 1000;
  const [burst] = await queryRows<{ documents: number; versions: number; ready: number }>(
    rt.db,
    sql`SELECT count(DISTINCT d.id)::int AS documents, count(v.*)::int AS versions,
          count(*) FILTER (WHERE d.status = 'ready')::int AS ready
        FROM documents d JOIN document_versions v ON v.document_id = d.id
        WHERE d.key LIKE ${`burst-${tag}/%`} AND d.deleted_at IS NULL`,
  );

  results.lifecycle = {
    reupload: { files: files.length, seconds: reuploadSeconds, unchanged, stepsBesidesRegister: workSteps },
    burst: { uploads: BURST_DISTINCT + BURST_DUPLICATES, seconds: burstSeconds, ...burst },
  };
  return [
    {
      metric: `re-upload ${files.length} unchanged docs`,
      value: `${reuploadSeconds.toFixed(1)} s, ${unchanged} unchanged, ${workSteps} parse/model steps`,
      target: '< 10 s (1,000), 0 steps',
    },
    {
      metric: `burst: ${BURST_DISTINCT} distinct + ${BURST_DUPLICATES} duplicate uploads at once`,
      value: `${burstSeconds.toFixed(1)} s, ${burst?.documents} docs, ${burst?.versions} versions, ${burst?.ready} ready`,
      target: '51 docs, 51 versions',
    },
  ];
}

async function standalone(): Promise<void> {
  const docs = Number(process.env.BENCH_DOCS ?? 1000);
  const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-bench-lifecycle-'));
  try {
    const rt = await openRuntime(loadConfig({ overrides: { dataDir } }));
    const files = Array.from({ length: docs }, (_, i) => ({
      key: `bench/doc-${i}.md`,
      bytes: new TextEncoder().encode(
        `# Document ${i}\n\nParagraph of document ${i}, about topic ${i % 17}.\n`,
      ),
    }));
    process.stderr.write(`ingesting ${docs} documents first...\n`);
    const began = performance.now();
    await rt.ingest.ingest(files);
    process.stderr.write(`  done in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
    const results: Record<string, unknown> = {};
    const rows = await benchLifecycle(rt, files, results);
    await rt.close();
    for (const row of rows) console.log(`| ${row.metric} | ${row.value} | ${row.target} |`);
    console.log(JSON.stringify(results));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await standalone();

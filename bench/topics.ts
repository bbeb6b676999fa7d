/**
 * Offline topics benchmark (issue 18 target: topic extraction adds < 20 ms per document at 1,000
 * documents). Indexes BENCH_TOPIC_DOCS (default 1,000) generated documents (bench/corpus.ts, ~50
 * paragraphs each, every third one Chinese) into an in-memory PGlite one after another and runs the
 * offline Topics work on each (`deriveDocumentTopics`: version terms, key phrases scored against the
 * corpus, merging, links, re-scoring of earlier documents); reports the median and p95 time per
 * document over the last tenth of the corpus (wall clock, and CPU time, which a machine loaded by
 * other work moves less), and the key-phrase extraction alone.
 * `node bin/run-ts.js bench/topics.ts` runs it alone (exit code 1 when the target is missed).
 */
import { sql } from 'drizzle-orm';
import { openPglite, queryRows } from '#shared/db/client.ts';
import { deriveDocumentTopics } from '#shared/enrich/topics/index.ts';
import { indexParsedDocument } from '#shared/index/index-document.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import { keyPhrases } from '#shared/llm/offline/key-phrases.ts';
import { parseMarkdown } from '#shared/parse/markdown.ts';
import { generateDocument } from './corpus.ts';
import type { BenchRow } from './enrich.ts';

const DOCS = Number(process.env.BENCH_TOPIC_DOCS ?? 1000);
const TARGET_MS = 20;
const SETTINGS = { minPerDocument: 3, maxPerDocument: 5, mergeThreshold: 0.85, batchSize: 64 };

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export async function benchTopics(): Promise<{ rows: BenchRow[]; met: boolean }> {
  const database = await openPglite();
  const { db } = database;
  const providers = { embedder: new HashingEmbedder({ dimensions: 256 }), label: 'offline' };
  const topicMs: number[] = [];
  const topicCpuMs: number[] = [];
  const phraseMs: number[] = [];
  try {
    for (let i = 0; i < DOCS; i++) {
      const doc = generateDocument(i);
      const parsed = await parseMarkdown({ bytes: new TextEncoder().encode(doc.text), filename: doc.name });
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`INSERT INTO documents (key, filename, file_type) VALUES (${doc.name}, ${doc.name}, 'md') RETURNING id`,
      );
      const documentId = row?.id ?? '';
      await indexParsedDocument(db, { documentId, version: 1, parsed });
      await db.execute(sql`INSERT INTO document_versions (document_id, version, file_hash, file_size, file_type, object_key, status)
        VALUES (${documentId}::uuid, 1, ${doc.name}, 1, 'md', ${doc.name}, 'processing')`);
      await db.execute(
        sql`UPDATE documents SET current_version = 1, status = 'ready' WHERE id = ${documentId}::uuid`,
      );
      const started = performance.now();
      const cpu = process.cpuUsage();
      await deriveDocumentTopics(db, providers, { documentId, version: 1 }, SETTINGS);
      topicMs.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      topicCpuMs.push((used.user + used.system) / 1000);
      await db.execute(
        sql`UPDATE document_versions SET status = 'ready' WHERE document_id = ${documentId}::uuid`,
      );
      const texts = [{ text: doc.text, weight: 1 }];
      const t = performance.now();
      keyPhrases(texts);
      phraseMs.push(performance.now() - t);
    }
  } finally {
    await database.close();
  }
  const last = topicMs.slice(Math.floor(DOCS * 0.9));
  const lastCpu = topicCpuMs.slice(Math.floor(DOCS * 0.9));
  const median = quantile(last, 0.5);
  const rows: BenchRow[] = [
    {
      metric: `offline Topics per document at ${DOCS} documents (median / p95, last 10%)`,
      value: `${median.toFixed(1)} / ${quantile(last, 0.95).toFixed(1)} ms`,
      target: `< ${TARGET_MS} ms`,
    },
    {
      metric: 'its CPU time (user + system, all threads; less moved by a loaded machine)',
      value: `${quantile(lastCpu, 0.5).toFixed(1)} / ${quantile(lastCpu, 0.95).toFixed(1)} ms`,
      target: '',
    },
    {
      metric: 'key-phrase extraction alone per document (median / p95)',
      value: `${quantile(phraseMs, 0.5).toFixed(1)} / ${quantile(phraseMs, 0.95).toFixed(1)} ms`,
      target: '',
    },
  ];
  return { rows, met: median < TARGET_MS };
}

if (process.argv[1]?.endsWith('bench/topics.ts')) {
  const { rows, met } = await benchTopics();
  for (const row of rows) console.log(`| ${row.metric} | ${row.value} | ${row.target} |`);
  if (!met) process.exitCode = 1;
}

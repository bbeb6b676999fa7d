import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_API_REQUEST_BYTES, DATA_API_RESPONSE_BYTES } from '#shared/db/data-api-limits.ts';
import { queryRows } from '#shared/db/index.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { openDataApiTestDatabase } from '../../fakes/data-api-db.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

/**
 * The pipeline's steps over the Data API fake (which refuses what the service refuses: a request
 * above 4 MiB, a result above 1 MiB) at the sizes where unpaged reads break: topics with 1,024-
 * dimension vectors (~12.7 KB each as text: ~80 pass 1 MiB) and one long document. In-process
 * steps over the real Data API client and driver (the bundles run the same code).
 */
const TOPICS = 150;
const SECTIONS = Number(process.env.DROPQA_SCALE_SECTIONS ?? 400);
const DIMENSIONS = 1024;

/**
 * A 1,024-dimension embedder whose vectors are dense like a real model's (every dimension set, so
 * ~12.7 KB as pgvector text; the hashing embedder's are mostly zeros): the hashing vector plus a
 * small component derived from the text, normalized.
 */
function denseEmbedder(dimensions: number): Embedder {
  const hashing = new HashingEmbedder({ dimensions });
  return {
    model: 'dense-test',
    dimensions,
    async embed(texts) {
      const vectors = await hashing.embed(texts);
      return vectors.map((vector, t) => {
        let seed = [...(texts[t] ?? '')].reduce((h, c) => (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0, 7);
        const dense = vector.map((x) => {
          seed = (seed * 1103515245 + 12345) >>> 0;
          return x + 0.05 * (seed / 2 ** 32 - 0.5);
        });
        const norm = Math.hypot(...dense) || 1;
        return dense.map((x) => x / norm);
      });
    },
  };
}

describe('Data API limits at realistic scale', () => {
  let database: Awaited<ReturnType<typeof openDataApiTestDatabase>>;
  let deps: PipelineDeps & { dispose(): Promise<void> };

  beforeAll(async () => {
    database = await openDataApiTestDatabase();
    const base = await testDeps(database.db, {
      providers: { embedder: { dimensions: DIMENSIONS } },
      limits: { pipelineConcurrency: 1 },
    });
    deps = {
      ...base,
      providers: { ...base.providers, embedder: denseEmbedder(DIMENSIONS) },
      // The HNSW build over 1,024 dimensions is not what this measures.
      deferVectorIndex: () => true,
    };
    // Topics as earlier documents left them, each with a 1,024-dimension vector of its name.
    const embedder = deps.providers.embedder;
    const names = Array.from({ length: TOPICS }, (_, i) => `wetland survey ${i} heron habitat`);
    const vectors = await embedder.embed(names);
    for (let start = 0; start < TOPICS; start += 50) {
      const rows = names
        .slice(start, start + 50)
        .map(
          (name, i) => sql`(${name}, ${vectorLiteral(vectors[start + i] ?? [])}::vector, ${embedder.model})`,
        );
      await database.db.execute(
        sql`INSERT INTO topics (name, embedding, embedding_model) VALUES ${sql.join(rows, sql`, `)}`,
      );
    }
  }, 120_000);
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it(`links documents among ${TOPICS} topics of ${DIMENSIONS} dimensions and ingests a ${SECTIONS}-section document, every statement within the limits`, async () => {
    const from = database.api.requests.length;
    const service = createIngestService(deps);
    const sections = Array.from(
      { length: SECTIONS },
      (_, i) =>
        `## Site ${i}\n\nSite ${i} holds ${i % 7} nesting herons along the wetland survey transect.\n`,
    );
    const files = [
      { key: 'scale/long.md', bytes: utf8(`# Long survey\n\n${sections.join('\n')}`) },
      // The topic mirror reads names on its first transaction, vectors on the next.
      ...[1, 2, 3].map((n) => ({
        key: `scale/note-${n}.md`,
        bytes: utf8(`# Heron note ${n}\n\nHerons nest in the wetland habitat surveyed in spring ${n}.\n`),
      })),
    ];
    for (const file of files) {
      const [outcome] = await service.ingest([file]);
      expect(outcome?.error, file.key).toBeUndefined();
      expect(outcome?.status, file.key).toBe('ready');
    }
    const [linked] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM document_topics dt JOIN documents d ON d.id = dt.document_id
          WHERE d.key LIKE 'scale/note-%'`,
    );
    expect(linked?.n).toBeGreaterThan(0);
    const sent = database.api.requests.slice(from);
    expect(Math.max(...sent.map((r) => r.bytes))).toBeLessThanOrEqual(DATA_API_REQUEST_BYTES);
    expect(Math.max(...sent.map((r) => r.responseBytes ?? 0))).toBeLessThanOrEqual(DATA_API_RESPONSE_BYTES);
    // The topics' vectors alone are ~1.9 MB as text: they came in pages.
    const vectorReads = sent.filter((r) => r.sql?.includes('embedding::text'));
    expect(vectorReads.length).toBeGreaterThan(1);
  }, 180_000);
});

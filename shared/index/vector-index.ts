import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { ConfigError } from '#shared/errors.ts';
import type { Embedder } from '#shared/llm/types.ts';

/** Model ids that may appear in SQL text (index names and partial-index predicates). */
const SAFE_MODEL = /^[A-Za-z0-9._:/-]+$/;
/** pgvector's HNSW indexes `vector` up to 2,000 dimensions. */
const MAX_HNSW_DIMENSIONS = 2000;

/**
 * The column expression the HNSW index is built on; semantic search must order by exactly this
 * expression (and filter on `vectorPredicate`) for the planner to use the index.
 *
 * @example sql.raw(`${vectorExpression(256, 'e.embedding')} <=> `) // then the query vector cast ::vector(256)
 */
export function vectorExpression(dims: number, column = 'embedding'): string {
  checkDimensions(dims);
  return `(${column}::vector(${dims}))`;
}

/**
 * The partial-index predicate for one embedder, as SQL text with the model inlined (a validated
 * literal: a bound parameter would not let the planner prove the predicate for a generic plan).
 */
export function vectorPredicate(embedder: Pick<Embedder, 'model' | 'dimensions'>, alias?: string): string {
  checkModel(embedder.model);
  checkDimensions(embedder.dimensions);
  const p = alias ? `${alias}.` : '';
  return `${p}model = '${embedder.model}' AND ${p}dimensions = ${embedder.dimensions}`;
}

/** The index name for one (model, dimensions): readable, unique and within Postgres' identifier limit. */
export function vectorIndexName(embedder: Pick<Embedder, 'model' | 'dimensions'>): string {
  checkModel(embedder.model);
  const slug = embedder.model.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const digest = createHash('sha256').update(embedder.model).digest('hex').slice(0, 8);
  // The digest keeps apart models that slug alike ("a.b" and "a-b"); the slug keeps the name readable.
  return `embeddings_hnsw_${slug.slice(0, 24)}_${embedder.dimensions}_${digest}`;
}

/**
 * Creates, if missing, the HNSW cosine index for one embedder: a partial expression index over the
 * rows of that (model, dimensions), so one `embeddings` table serves any number of embedders.
 *
 * With `bulk` (the index built at the end of a bulk load), the build gets more memory.
 *
 * @example await ensureVectorIndex(db, providers.embedder, config.search.hnsw);
 */
export async function ensureVectorIndex(
  db: Db,
  embedder: Embedder,
  hnsw: { m: number; efConstruction: number },
  options: { bulk?: boolean } = {},
): Promise<void> {
  if (!Number.isInteger(hnsw.m) || !Number.isInteger(hnsw.efConstruction)) {
    throw new ConfigError('search.hnsw.m and search.hnsw.efConstruction must be integers');
  }
  const create = sql.raw(
    `CREATE INDEX IF NOT EXISTS ${vectorIndexName(embedder)} ON embeddings ` +
      `USING hnsw (${vectorExpression(embedder.dimensions)} vector_cosine_ops) ` +
      `WITH (m = ${hnsw.m}, ef_construction = ${hnsw.efConstruction}) ` +
      `WHERE ${vectorPredicate(embedder)}`,
  );
  if (!options.bulk) {
    await db.execute(create);
    return;
  }
  await db.transaction(async (tx) => {
    // Built over many rows (the end of a bulk ingest), the graph outgrows the default 64 MB and the
    // build takes ~1.8x as long (1,000 documents: 44 s -> 25 s); the setting ends with the transaction.
    // Only here: the per-document calls run concurrently, where a transaction each buys nothing.
    const [row] = await queryRows<{ n: number }>(
      tx as unknown as Db,
      sql.raw(`SELECT count(*)::int AS n FROM embeddings WHERE ${vectorPredicate(embedder)}`),
    );
    const memory = buildMemoryMb(Number(row?.n ?? 0), embedder.dimensions, hnsw.m);
    await tx.execute(sql.raw(`SET LOCAL maintenance_work_mem = '${memory}MB'`));
    // A build over every row may take longer than database.statementTimeoutMs allows a statement.
    await tx.execute(sql.raw('SET LOCAL statement_timeout = 0'));
    await tx.execute(create);
  });
}

/** Bounds of the memory for building the HNSW graph at the end of a bulk load, in MB. */
const BUILD_MEMORY_MB = { min: 64, max: 1024 };

/**
 * Memory (MB) for building the HNSW graph of `vectors` in one pass: pgvector builds in memory while
 * the graph fits and inserts the rest one by one on disk, ~4.7x as slow (70,000 vectors of 256
 * dimensions, m 8: 25 s in memory, 118 s with 16 MB, which held 11,977 of them: 1,401 bytes a
 * vector, the vector's 4 x 256 + 8 and ~46 bytes of links per m). A quarter more than the graph
 * takes, within 64 MB .. 1 GB: a fixed 512 MB held ~380,000 such vectors, and 10,000 documents of
 * 50 paragraphs have ~700,000 (their build was ~1,880 s, most of the ingest's slowdown). The
 * database's WebAssembly memory ends at 2 GiB, so past ~766,000 vectors the build spills anyway
 * (docs/scale.md says where the embedded default should stop).
 */
export function buildMemoryMb(vectors: number, dimensions: number, m: number): number {
  const bytes = vectors * (4 * dimensions + 8 + 46 * m) * 1.25;
  return Math.min(BUILD_MEMORY_MB.max, Math.max(BUILD_MEMORY_MB.min, Math.ceil(bytes / 2 ** 20)));
}

function checkModel(model: string): void {
  if (!SAFE_MODEL.test(model)) {
    throw new ConfigError(`embedder model id '${model}' may only contain letters, digits and . _ : / -`);
  }
}

function checkDimensions(dims: number): void {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_HNSW_DIMENSIONS) {
    throw new ConfigError(
      `embedder dimensions must be an integer from 1 to ${MAX_HNSW_DIMENSIONS} (got ${dims})`,
    );
  }
}

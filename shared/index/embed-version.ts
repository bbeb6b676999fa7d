import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { byteBatches, parameterBytes } from '#shared/db/data-api-limits.ts';
import { rowValues } from '#shared/db/row-values.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';
import { withWrites } from '#shared/db/with-writes.ts';
import { ProviderError, reasonOf } from '#shared/errors.ts';
import type { Embedder } from '#shared/llm/types.ts';
import { readVersionNodes } from './version-nodes.ts';

/** Which nodes to embed by id, and what to send with the last INSERT (see `embedVersion`). */
export interface EmbedOptions {
  include?: ReadonlySet<string>;
  exclude?: ReadonlySet<string>;
  writes?: (embedded: number) => Promise<SQL[]>;
}

/** The leaves: what search returns. */
export const LEAF_NODE_TYPES: readonly NodeType[] = ['paragraph', 'table', 'image'];

/**
 * Embeds the index text of a version's nodes of `nodeTypes` (default: the leaves: paragraphs with
 * their context, tables, images with their OCR text and description; sections and the document
 * are embedded by their title and summary) in as few batches of at most `batchSize` as can be, of
 * equal size (so none is small when many are pending), and stores one vector per node for the
 * embedder's model, in INSERT statements of at most 3 MiB (each vector travels as a text literal,
 * ~11 KB at 1,024 dimensions: 500 rows would pass the Data API's 4 MiB request; the embedded
 * database gets it in binary, `installVectorSerializer`). Re-running replaces the vectors (a retried step, image text filled in by OCR). Nodes with no text, and texts the embedder
 * maps to the zero vector, get no vector: cosine distance is undefined for them. `include` and
 * `exclude` narrow the nodes by id (the Summarize step embeds most nodes while the document summary
 * is still being written, and the rest after it); `writes`, given how many nodes got a vector, go
 * with the last INSERT (`withWrites`), or alone when there is nothing to insert.
 *
 * @example const { embedded } = await embedVersion(db, providers.embedder, { documentId, version }, 64);
 */
export async function embedVersion(
  db: Db,
  embedder: Embedder,
  ref: { documentId: string; version: number },
  batchSize: number,
  nodeTypes: readonly NodeType[] = LEAF_NODE_TYPES,
  options: EmbedOptions = {},
): Promise<{ embedded: number }> {
  const nodes = await readVersionNodes<IndexedNode>(
    db,
    ref,
    sql`n.id, n.index_text`,
    sql`n.node_type = ANY(${`{${nodeTypes.join(',')}}`}::text[])`,
  );
  return embedNodes(db, embedder, nodes, batchSize, options);
}

/** A node and its index text, as `embedVersion` reads them. */
export interface IndexedNode {
  id: string;
  index_text: string | null;
}

/**
 * `embedVersion` for nodes whose index texts the caller holds already (in reading order): the
 * offline Summarize step, which has just written them.
 *
 * @example await embedNodes(db, providers.embedder, [{ id, index_text: 'Budget\nThe budget grew.' }], 64);
 */
export async function embedNodes(
  db: Db,
  embedder: Embedder,
  nodes: readonly IndexedNode[],
  batchSize: number,
  options: EmbedOptions = {},
): Promise<{ embedded: number }> {
  const pending = nodes.filter(
    (node) =>
      node.index_text?.trim() &&
      (!options.include || options.include.has(node.id)) &&
      !options.exclude?.has(node.id),
  );
  const rows: { nodeId: string; literal: string }[] = [];
  // Equal batches (80 texts at 64 a batch: 40 + 40, not 64 + 16): as few calls, none of them small.
  const calls = Math.ceil(pending.length / Math.max(1, Math.floor(batchSize)));
  const step = Math.ceil(pending.length / Math.max(1, calls));
  for (let start = 0; start < pending.length; start += step) {
    const batch = pending.slice(start, start + step);
    const vectors = await embedBatch(
      embedder,
      batch.map((node) => node.index_text ?? ''),
    );
    batch.forEach((node, i) => {
      const vector = vectors[i];
      if (vector?.some((x) => x !== 0)) rows.push({ nodeId: node.id, literal: vectorLiteral(vector) });
    });
  }
  const batches = byteBatches(rows, (r) =>
    parameterBytes([r.nodeId, embedder.model, embedder.dimensions, r.literal]),
  );
  const writes = (await options.writes?.(rows.length)) ?? [];
  for (const [n, batch] of batches.entries()) {
    const values = rowValues(
      batch.map((r) => [r.nodeId, embedder.model, embedder.dimensions, r.literal]),
      EMBEDDING_CASTS,
    );
    const insert = sql`
      INSERT INTO embeddings (node_id, model, dimensions, embedding)
      VALUES ${values}
      ON CONFLICT (node_id, model) DO UPDATE
        SET dimensions = excluded.dimensions, embedding = excluded.embedding, created_at = now()`;
    await db.execute(n === batches.length - 1 ? withWrites(writes, insert) : insert);
  }
  if (batches.length === 0) for (const write of writes) await db.execute(write);
  return { embedded: rows.length };
}

/** The casts of an embeddings row: node id, model, dimensions, vector. */
const EMBEDDING_CASTS = ['uuid', '', 'int', 'vector'];

async function embedBatch(embedder: Embedder, texts: string[]): Promise<number[][]> {
  let vectors: number[][];
  try {
    vectors = await embedder.embed(texts);
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    throw new ProviderError(`embedder ${embedder.model} failed: ${reasonOf(error)}`, { cause: error });
  }
  if (vectors.length !== texts.length || vectors.some((v) => v.length !== embedder.dimensions)) {
    throw new ProviderError(
      `embedder ${embedder.model} returned ${vectors.length} vectors for ${texts.length} texts, ` +
        `expected ${embedder.dimensions} dimensions each`,
    );
  }
  return vectors;
}

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import { stemTerm } from '#shared/index/analyze.ts';
import { embedVersion } from '#shared/index/embed-version.ts';
import { flattenTree } from '#shared/index/flatten.ts';
import { indexParsedDocument } from '#shared/index/index-document.ts';
import { ensureVectorIndex, vectorExpression, vectorPredicate } from '#shared/index/vector-index.ts';
import { writeNodes } from '#shared/index/write-nodes.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { CONTAINER_PARAGRAPH, planDocument } from '../../unit/index/plan-document.ts';
import { insertDocument } from './insert-document.ts';

const embedder = new HashingEmbedder({ dimensions: 64 });

describe.each(DRIVERS)('indexing a document (%s)', (driver) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('indexParsedDocument', () => {
    it('writes every node with its counts by type', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'plan.md');
      const result = await indexParsedDocument(db, { documentId, version: 1, parsed: planDocument() });
      expect(result.stats).toEqual({ sections: 4, paragraphs: 6, tables: 1, images: 1, nodes: 13 });
      const rows = await queryRows<{ node_type: string; n: number }>(
        db,
        sql`SELECT node_type, count(*)::int AS n FROM nodes WHERE document_id = ${documentId} GROUP BY node_type ORDER BY node_type`,
      );
      expect(rows).toEqual([
        { node_type: 'document', n: 1 },
        { node_type: 'image', n: 1 },
        { node_type: 'paragraph', n: 6 },
        { node_type: 'section', n: 4 },
        { node_type: 'table', n: 1 },
      ]);
    });

    it('returns the node of each image and stores its metadata as JSON', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'images.md');
      const { imageNodes } = await indexParsedDocument(db, {
        documentId,
        version: 1,
        parsed: planDocument(),
      });
      expect(imageNodes).toHaveLength(1);
      const [image] = await queryRows<{ name: string; metadata: Record<string, unknown>; depth: number }>(
        db,
        sql`SELECT metadata->>'name' AS name, metadata, depth FROM nodes WHERE id = ${imageNodes[0]?.nodeId}`,
      );
      expect(imageNodes[0]?.name).toBe('arch.png');
      expect(image).toEqual({
        name: 'arch.png',
        depth: 4,
        metadata: { name: 'arch.png', mime: 'image/png', width: 640, height: 480 },
      });
    });

    it('stores a tsvector that full-text queries match with weights', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'fulltext.md');
      await indexParsedDocument(db, { documentId, version: 1, parsed: planDocument() });
      const hits = await queryRows<{ content: string; token_count: number }>(
        db,
        sql`SELECT content, token_count FROM nodes
            WHERE document_id = ${documentId} AND search_vector @@ ${`'${stemTerm('kubernetes')}' & '容器' & '改造'`}::tsquery`,
      );
      expect(hits).toHaveLength(1);
      expect(hits[0]?.content).toBe(CONTAINER_PARAGRAPH);
      expect(hits[0]?.token_count).toBeGreaterThan(10);
      const titled = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM nodes
            WHERE document_id = ${documentId} AND search_vector @@ ${"'平台':A"}::tsquery`,
      );
      // The section itself and its three leaves carry its title in the A-weighted path.
      expect(titled[0]?.n).toBe(4);
    });

    it('replaces the rows of the same version when run again', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'retry.md');
      await indexParsedDocument(db, { documentId, version: 1, parsed: planDocument() });
      await indexParsedDocument(db, { documentId, version: 1, parsed: planDocument() });
      await indexParsedDocument(db, { documentId, version: 2, parsed: planDocument() });
      const counts = await queryRows<{ version: number; n: number }>(
        db,
        sql`SELECT version, count(*)::int AS n FROM nodes WHERE document_id = ${documentId} GROUP BY version ORDER BY version`,
      );
      expect(counts).toEqual([
        { version: 1, n: 13 },
        { version: 2, n: 13 },
      ]);
    });
  });

  describe('writeNodes', () => {
    it('writes more rows than one statement holds', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'long.md');
      const parsed: ParsedDocument = {
        title: 'long',
        metadata: {},
        images: [],
        warnings: [],
        children: Array.from({ length: 1_203 }, (_, i) => ({
          type: 'paragraph' as const,
          text: `段落 ${i} it's 'quoted' \\ text`,
        })),
      };
      const rows = flattenTree(parsed, { documentId, version: 1 });
      await writeNodes(db, rows);
      const [stored] = await queryRows<{ n: number; max: number }>(
        db,
        sql`SELECT count(*)::int AS n, max(ordinal)::int AS max FROM nodes WHERE document_id = ${documentId}`,
      );
      expect(stored).toEqual({ n: 1_204, max: 1_203 });
      const [last] = await queryRows<{ content: string }>(
        db,
        sql`SELECT content FROM nodes WHERE document_id = ${documentId} AND ordinal = 1203`,
      );
      expect(last?.content).toBe("段落 1202 it's 'quoted' \\ text");
    });
  });

  describe('embedVersion', () => {
    it('embeds every leaf with text and finds the matching paragraph nearest', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'embed.md');
      await indexParsedDocument(db, { documentId, version: 1, parsed: planDocument() });
      const { embedded } = await embedVersion(db, embedder, { documentId, version: 1 }, 3);
      expect(embedded).toBe(8);
      const [query] = await embedder.embed(['容器化改造 Kubernetes 预算']);
      const nearest = await queryRows<{ content: string; model: string; dimensions: number }>(
        db,
        sql`SELECT n.content, e.model, e.dimensions FROM embeddings e JOIN nodes n ON n.id = e.node_id
            WHERE n.document_id = ${documentId}
            ORDER BY e.embedding <=> ${`[${query?.join(',')}]`}::vector LIMIT 1`,
      );
      expect(nearest[0]).toEqual({ content: CONTAINER_PARAGRAPH, model: 'offline-hash-v1', dimensions: 64 });
    });

    it('replaces vectors instead of duplicating them when run again', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'embed-twice.md');
      await indexParsedDocument(db, { documentId, version: 1, parsed: planDocument() });
      await embedVersion(db, embedder, { documentId, version: 1 }, 64);
      await embedVersion(db, embedder, { documentId, version: 1 }, 64);
      const [count] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM embeddings e JOIN nodes n ON n.id = e.node_id WHERE n.document_id = ${documentId}`,
      );
      expect(count?.n).toBe(8);
    });

    it('skips leaves without any word to embed', async () => {
      const { db } = database;
      const documentId = await insertDocument(db, 'blank.md');
      const parsed: ParsedDocument = {
        title: 'blank',
        metadata: {},
        images: [],
        warnings: [],
        children: [
          { type: 'paragraph', text: '---' },
          { type: 'image', name: 'x.png', alt: '' },
          { type: 'paragraph', text: 'one real sentence' },
        ],
      };
      await indexParsedDocument(db, { documentId, version: 1, parsed });
      expect(await embedVersion(db, embedder, { documentId, version: 1 }, 64)).toEqual({ embedded: 1 });
    });
  });

  describe('ensureVectorIndex', () => {
    it('creates the HNSW index once and search through vectorExpression uses it', async () => {
      const { db } = database;
      await ensureVectorIndex(db, embedder, { m: 8, efConstruction: 32 });
      await ensureVectorIndex(db, embedder, { m: 8, efConstruction: 32 });
      const indexes = await queryRows<{ indexdef: string }>(
        db,
        sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'embeddings' AND indexdef LIKE '%hnsw%'`,
      );
      expect(indexes).toHaveLength(1);
      expect(indexes[0]?.indexdef).toMatch(
        /WHERE \(\(model = 'offline-hash-v1'::text\) AND \(dimensions = 64\)\)/,
      );

      const [query] = await embedder.embed(['容器化改造']);
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        return queryRows<{ 'QUERY PLAN': string }>(
          tx,
          sql`EXPLAIN SELECT e.node_id FROM embeddings e WHERE ${sql.raw(vectorPredicate(embedder, 'e'))}
              ORDER BY ${sql.raw(vectorExpression(64, 'e.embedding'))} <=> ${`[${query?.join(',')}]`}::vector(64)
              LIMIT 5`,
        );
      });
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Scan using embeddings_hnsw_/);
    });
  });
});

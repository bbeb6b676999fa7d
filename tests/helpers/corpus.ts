import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { summarizeVersion } from '#shared/enrich/summaries.ts';
import { embedVersion } from '#shared/index/embed-version.ts';
import { indexParsedDocument } from '#shared/index/index-document.ts';
import { ensureVectorIndex } from '#shared/index/vector-index.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { Embedder, Providers } from '#shared/llm/types.ts';
import type { ParagraphNode, ParsedDocument, SectionNode, TableNode, TreeNode } from '#shared/parse/types.ts';

/** A document of the test corpus: its versions as parsed trees (version n = versions[n - 1]). */
export interface CorpusDocument {
  filename: string;
  key?: string;
  versions: ParsedDocument[];
  /** The current version (default: the last one). */
  current?: number;
  /** Soft-deleted (deleted_at set) after indexing, its rows left in place. */
  deleted?: boolean;
  /** Its collection (shared/access); default `default`. */
  collection?: string;
}

export interface IndexedDocument {
  id: string;
  key: string;
  filename: string;
  versions: number;
  current: number;
}

/** The embedder corpus tests use unless they pass their own. */
export function testEmbedder(): Embedder {
  return new HashingEmbedder({ dimensions: 64 });
}

/**
 * Indexes hand-built documents into a test database through the real indexing code (nodes,
 * offline summaries, embeddings, the HNSW index), then marks each one ready at its current version,
 * as the pipeline's Activate step would. Returns the documents by file name.
 */
export async function indexCorpus(
  db: Db,
  documents: CorpusDocument[],
  embedder: Embedder = testEmbedder(),
): Promise<Map<string, IndexedDocument>> {
  const providers: Providers = { embedder, label: 'offline (test)' };
  const result = new Map<string, IndexedDocument>();
  for (const doc of documents) {
    const id = randomUUID();
    const key = doc.key ?? `uploads/${doc.filename}`;
    await db.execute(sql`INSERT INTO documents (id, key, filename, file_type, status, collection)
      VALUES (${id}::uuid, ${key}, ${doc.filename}, 'md', 'processing', ${doc.collection ?? 'default'})`);
    for (const [i, parsed] of doc.versions.entries()) {
      const version = i + 1;
      const hash = createHash('sha256').update(JSON.stringify(parsed)).digest('hex');
      await db.execute(sql`INSERT INTO document_versions (document_id, version, file_hash, file_size, file_type, object_key, status)
        VALUES (${id}::uuid, ${version}::int, ${hash}, 0, 'md', ${`${key}#v${version}`}, 'ready')`);
      await indexParsedDocument(db, { documentId: id, version, parsed });
      await summarizeVersion(db, providers, { documentId: id, version });
      await embedVersion(db, embedder, { documentId: id, version }, 64);
    }
    const current = doc.current ?? doc.versions.length;
    await db.execute(sql`UPDATE documents SET current_version = ${current}::int, status = 'ready',
      deleted_at = ${doc.deleted ? sql`now()` : sql`NULL`} WHERE id = ${id}::uuid`);
    result.set(doc.filename, { id, key, filename: doc.filename, versions: doc.versions.length, current });
  }
  await ensureVectorIndex(db, embedder, { m: 8, efConstruction: 32 });
  return result;
}

/** Soft-deletes a document (its rows stay, as between deletion and cleanup). */
export async function markDeleted(db: Db, documentId: string): Promise<void> {
  await db.execute(
    sql`UPDATE documents SET deleted_at = now(), status = 'deleted' WHERE id = ${documentId}::uuid`,
  );
}

/** Makes another version of a document current. */
export async function setCurrentVersion(db: Db, documentId: string, version: number): Promise<void> {
  await db.execute(
    sql`UPDATE documents SET current_version = ${version}::int WHERE id = ${documentId}::uuid`,
  );
}

/** A parsed document with the given top-level children. */
export function doc(title: string, ...children: TreeNode[]): ParsedDocument {
  return { title, metadata: {}, children, images: [], warnings: [] };
}

export function section(title: string, ...children: TreeNode[]): SectionNode {
  return { type: 'section', title, children };
}

export function para(text: string): ParagraphNode {
  return { type: 'paragraph', text };
}

export function table(text: string): TableNode {
  return { type: 'table', text };
}

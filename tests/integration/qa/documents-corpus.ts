import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { renderMarkdown } from '#shared/parse/render-markdown.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { type CorpusDocument, type IndexedDocument, indexCorpus } from '../../helpers/corpus.ts';

/**
 * Indexes documents with `indexCorpus`, then does what the Parse step adds for the documents mode:
 * each version's Markdown rendition and images under `documents/<id>/v<n>/` in the store, the
 * version's `markdown_key`, and one `images` row per image node.
 */
export async function indexWithRenditions(
  db: Db,
  store: BlobStore,
  documents: CorpusDocument[],
): Promise<Map<string, IndexedDocument>> {
  const indexed = await indexCorpus(db, documents);
  for (const doc of documents) {
    const info = indexed.get(doc.filename);
    if (!info) continue;
    for (const [i, parsed] of doc.versions.entries()) await publish(db, store, info.id, i + 1, parsed);
  }
  return indexed;
}

async function publish(db: Db, store: BlobStore, id: string, version: number, parsed: ParsedDocument) {
  const prefix = `documents/${id}/v${version}/`;
  await store.put(`${prefix}content.md`, renderMarkdown(parsed));
  await db.execute(sql`UPDATE document_versions SET markdown_key = ${`${prefix}content.md`}
    WHERE document_id = ${id}::uuid AND version = ${version}::int`);
  const nodes = await queryRows<{ id: string; name: string }>(
    db,
    sql`SELECT id, metadata->>'name' AS name FROM nodes WHERE document_id = ${id}::uuid
        AND version = ${version}::int AND node_type = 'image'`,
  );
  const byName = new Map(parsed.images.map((image) => [image.name, image]));
  for (const row of nodes) {
    const image = byName.get(row.name);
    if (!image) continue;
    await store.put(prefix + image.name, image.bytes);
    await db.execute(sql`INSERT INTO images (node_id, object_key, filename, mime, size)
      VALUES (${row.id}::uuid, ${prefix + image.name}, ${image.name}, ${image.mime}, ${image.bytes.length}::int)`);
  }
}

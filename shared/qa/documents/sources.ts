import { sql } from 'drizzle-orm';
import type { AccessScope } from '#shared/access/scope.ts';
import type { Db } from '#shared/db/client.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';
import { hydrateHits } from '#shared/search/hydrate.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import type { QaSource } from '../response.ts';
import { toSource } from '../sources.ts';
import type { DocumentReference } from './references.ts';
import type { Stage1Result } from './stage1.ts';

const squash = (text: string) => collapseSpaces(text.normalize('NFC'));

/**
 * The references as sources of the common response (document, section path, snippet), each resolved
 * to the node whose text its paragraph holds (or is part of) and, for images, the image's node: so the
 * client can open the document at that section. References without a matching node are left out.
 */
export async function referencesAsSources(
  db: Db,
  access: AccessScope,
  references: DocumentReference[],
  documents: Stage1Result[],
): Promise<QaSource[]> {
  const nodeOf = new Map<string, string>();
  for (const doc of documents) {
    const wanted = references.filter((r) => r.doc_id === doc.documentId);
    if (wanted.length === 0) continue;
    // In pages: a long document's text passes the Data API's 1 MiB result.
    const rows = await readVersionNodes<{ id: string; content: string | null; filename: string | null }>(
      db,
      { documentId: doc.documentId, version: doc.version },
      sql`n.id, n.content, (SELECT i.filename FROM images i WHERE i.node_id = n.id) AS filename`,
      sql`n.node_type IN ('paragraph', 'table', 'image')`,
    );
    for (const ref of wanted) {
      const match =
        ref.chunk_type === 'image'
          ? rows.find(
              (row) => row.filename && ref.image_url?.includes(`/images/${encodeURIComponent(row.filename)}`),
            )
          : rows.find((row) => {
              const content = squash(row.content ?? '');
              const text = squash(ref.content ?? '');
              return content.length > 0 && (text.includes(content) || content.includes(text));
            });
      if (match) nodeOf.set(ref.ref_id, match.id);
    }
  }
  const nodeIds = [...new Set(references.flatMap((r) => nodeOf.get(r.ref_id) ?? []))];
  const hits = await hydrateHits(
    db,
    access,
    nodeIds.map((nodeId) => ({ nodeId, score: 0 })),
  );
  return hits.map((hit, i) => toSource(hit, i + 1));
}

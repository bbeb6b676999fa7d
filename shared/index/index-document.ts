import type { SQL } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { flattenTree } from './flatten.ts';
import type { NodeRow } from './node-row.ts';
import { fitsOneStatement, writeNodes } from './write-nodes.ts';

export interface IndexStats {
  sections: number;
  paragraphs: number;
  tables: number;
  images: number;
  nodes: number;
}

export interface IndexResult {
  stats: IndexStats;
  /** The node created for each image, so the caller can write the `images` rows and blobs. */
  imageNodes: { name: string; nodeId: string }[];
}

/**
 * Writes a parsed (already normalized) document as the `nodes` rows of one version, atomically. Rows left by an earlier attempt at the same version are replaced, so a retried parse
 * step does not duplicate the tree. `writes`, given the counts, go with the first statement
 * (`withWrites`): the caller's bookkeeping without a round trip of its own.
 *
 * @example
 * const { stats, imageNodes } = await indexParsedDocument(db, { documentId, version: 2, parsed });
 */
export async function indexParsedDocument(
  db: Db,
  args: { documentId: string; version: number; parsed: ParsedDocument },
  writes?: (stats: IndexStats) => SQL[],
): Promise<IndexResult> {
  const ref = { documentId: args.documentId, version: args.version };
  const rows = flattenTree(args.parsed, ref);
  const { stats, imageNodes } = countRows(rows);
  const options = { replacing: ref, writes: writes?.(stats) ?? [] };
  // A small document is replaced by one statement, atomic by itself; a larger one in a transaction.
  if (fitsOneStatement(rows)) await writeNodes(db, rows, options);
  else await db.transaction((tx) => writeNodes(tx as unknown as Db, rows, options));
  return { stats, imageNodes };
}

function countRows(rows: NodeRow[]): IndexResult {
  const stats: IndexStats = { sections: 0, paragraphs: 0, tables: 0, images: 0, nodes: rows.length };
  const imageNodes: IndexResult['imageNodes'] = [];
  for (const row of rows) {
    if (row.nodeType === 'section') stats.sections += 1;
    else if (row.nodeType === 'paragraph') stats.paragraphs += 1;
    else if (row.nodeType === 'table') stats.tables += 1;
    else if (row.nodeType === 'image') {
      stats.images += 1;
      imageNodes.push({ name: String(row.metadata.name), nodeId: row.id });
    }
  }
  return { stats, imageNodes };
}

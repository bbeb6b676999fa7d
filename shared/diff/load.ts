import { sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { NotFoundError } from '#shared/errors.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';
import type { OutlineLeaf, OutlineSection, VersionOutline } from './types.ts';

/** A `nodes` row as the diff reads it (an image row carries its stored size). */
export interface OutlineRow {
  id: string;
  parent_id: string | null;
  node_type: NodeType;
  ordinal: number;
  title: string | null;
  content: string | null;
  metadata: Record<string, unknown> | string | null;
  image_size: number | null;
}

/**
 * The section outline of one version of a document, from its `nodes` rows in reading order, read in
 * pages (`readVersionNodes`) so that a long document stays under the Data API's response limit.
 * Works the same on PGlite, Postgres and the Data API.
 *
 * @throws NotFoundError when the version has no content (never ready, or failed).
 */
export async function loadOutline(db: Db, documentId: string, version: number): Promise<VersionOutline> {
  const rows = await readVersionNodes<OutlineRow>(
    db,
    { documentId, version },
    sql`n.id, n.parent_id, n.node_type, n.ordinal, n.title, n.content,
        CASE WHEN n.node_type = 'image' THEN n.metadata END AS metadata,
        CASE WHEN n.node_type = 'image' THEN (SELECT i.size FROM images i WHERE i.node_id = n.id) END AS image_size`,
  );
  if (!rows.some((row) => row.node_type === 'document')) {
    throw new NotFoundError(`Document ${documentId} has no content for version ${version}`);
  }
  return buildOutline(rows, version);
}

/**
 * Builds the outline from rows in reading order: sections nest by parent, leaves attach to their
 * nearest section (the root when outside any).
 */
export function buildOutline(rows: readonly OutlineRow[], version: number): VersionOutline {
  const rootRow = rows.find((row) => row.node_type === 'document');
  const root: OutlineSection = {
    nodeId: rootRow?.id ?? '',
    title: rootRow?.title ?? '',
    ordinal: 0,
    path: [],
    leaves: [],
    children: [],
  };
  const sections = new Map<string, OutlineSection>([[root.nodeId, root]]);
  for (const row of rows) {
    if (row.node_type === 'document') continue;
    const parent = (row.parent_id && sections.get(row.parent_id)) || root;
    if (row.node_type === 'section') {
      const title = row.title ?? '';
      const section: OutlineSection = {
        nodeId: row.id,
        title,
        ordinal: Number(row.ordinal),
        path: [...parent.path, title],
        leaves: [],
        children: [],
      };
      sections.set(row.id, section);
      parent.children.push(section);
      continue;
    }
    parent.leaves.push(leafOf(row));
  }
  return { version, title: root.title, root };
}

function leafOf(row: OutlineRow): OutlineLeaf {
  const text = row.content ?? '';
  const kind = row.node_type === 'table' || row.node_type === 'image' ? row.node_type : 'paragraph';
  let signature = `${kind}:${text}`;
  if (kind === 'image') {
    const meta = (
      typeof row.metadata === 'string' ? JSON.parse(row.metadata) : (row.metadata ?? {})
    ) as Record<string, unknown>;
    signature = `image:${meta.name ?? ''}|${meta.width ?? ''}x${meta.height ?? ''}|${row.image_size ?? ''}|${text}`;
  }
  return { nodeId: row.id, ordinal: Number(row.ordinal), kind, text, signature };
}

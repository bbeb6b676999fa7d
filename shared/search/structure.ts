import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { NO_READY_VERSION, NotFoundError, ValidationError } from '#shared/errors.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';
import { isUuid } from './scope.ts';

/** Leaves under a node, by kind (all depths). */
export interface NodeCounts {
  sections: number;
  paragraphs: number;
  tables: number;
  images: number;
}

/** A section of the structure tree; only sections appear, leaves are counted. */
export interface StructureSection {
  id: string;
  title: string;
  summary: string | null;
  depth: number;
  position: number;
  ordinal: number;
  category: string | null;
  counts: NodeCounts;
  children: StructureSection[];
}

export interface DocumentStructure {
  documentId: string;
  filename: string;
  key: string;
  version: number;
  /** The document node's title and summary. */
  title: string;
  summary: string | null;
  /** The document node's metadata: front matter, core properties, an e-mail's from / to / cc / date. */
  metadata: Record<string, unknown>;
  counts: NodeCounts;
  sections: StructureSection[];
}

interface Row {
  id: string;
  parent_id: string | null;
  node_type: NodeType;
  depth: number;
  title: string | null;
  summary: string | null;
  position: number;
  ordinal: number;
  category: string | null;
  /** Only the document node's (the others' are not needed for the tree). */
  metadata: Record<string, unknown> | string | null;
}

/**
 * The section tree of one version of a document (default: its current version) with titles,
 * summaries and the number of sections, paragraphs, tables and images under each section.
 *
 * @throws NotFoundError when the document does not exist, is deleted, or has no such version.
 */
export async function getDocumentStructure(
  db: Db,
  access: AccessScope,
  documentId: string,
  version?: number,
): Promise<DocumentStructure> {
  if (!isUuid(documentId)) throw new ValidationError(`document id '${documentId}' is not a UUID`);
  const [doc] = await queryRows<{ filename: string; key: string; current_version: number | null }>(
    db,
    sql`SELECT filename, key, current_version FROM documents
        WHERE id = ${documentId}::uuid AND deleted_at IS NULL AND ${collectionCondition(access, sql`collection`)}`,
  );
  if (!doc) throw new NotFoundError(`No document with id ${documentId}`);
  const wanted = version ?? (doc.current_version === null ? undefined : Number(doc.current_version));
  if (wanted === undefined)
    throw new NotFoundError(`Document ${documentId} has no ready version yet`, NO_READY_VERSION);
  // In pages: a long document's summaries pass the Data API's 1 MiB result.
  const rows = await readVersionNodes<Row>(
    db,
    { documentId, version: wanted },
    sql`n.id, n.parent_id, n.node_type, n.depth, n.title, n.summary, n.position, n.ordinal, n.category,
        CASE WHEN n.node_type = 'document' THEN n.metadata END AS metadata`,
  );
  const root = rows.find((row) => row.node_type === 'document');
  if (!root) throw new NotFoundError(`Document ${documentId} has no version ${wanted}`);
  return buildStructure(root, rows, { documentId, filename: doc.filename, key: doc.key, version: wanted });
}

function buildStructure(
  root: Row,
  rows: Row[],
  doc: { documentId: string; filename: string; key: string; version: number },
): DocumentStructure {
  const sections = new Map<string, StructureSection>();
  const rootCounts = emptyCounts();
  for (const row of rows) {
    if (row.node_type !== 'section') continue;
    sections.set(row.id, {
      id: row.id,
      title: row.title ?? '',
      summary: row.summary,
      depth: Number(row.depth),
      position: Number(row.position),
      ordinal: Number(row.ordinal),
      category: row.category,
      counts: emptyCounts(),
      children: [],
    });
  }
  const parentOf = new Map(rows.map((row) => [row.id, row.parent_id]));
  const top: StructureSection[] = [];
  // Rows come in reading order, so children are appended in document order.
  for (const row of rows) {
    if (row.node_type === 'document') continue;
    const key = countKey(row.node_type);
    rootCounts[key] += 1;
    for (let up = row.parent_id; up; up = parentOf.get(up) ?? null) {
      const section = sections.get(up);
      if (section) section.counts[key] += 1;
    }
    const self = sections.get(row.id);
    if (!self) continue;
    const parent = row.parent_id ? sections.get(row.parent_id) : undefined;
    if (parent) parent.children.push(self);
    else top.push(self);
  }
  return {
    ...doc,
    title: root.title ?? doc.filename,
    summary: root.summary,
    metadata: jsonColumn<Record<string, unknown>>(root.metadata, {}),
    counts: rootCounts,
    sections: top,
  };
}

function countKey(type: NodeType): keyof NodeCounts {
  if (type === 'section') return 'sections';
  if (type === 'table') return 'tables';
  if (type === 'image') return 'images';
  return 'paragraphs';
}

function emptyCounts(): NodeCounts {
  return { sections: 0, paragraphs: 0, tables: 0, images: 0 };
}

import { sql } from 'drizzle-orm';
import { type AccessScope, documentInScope } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import { NotFoundError, ValidationError } from '#shared/errors.ts';
import type { NodeRow } from '#shared/index/node-row.ts';
import { isUuid, LEAF_TYPES } from './scope.ts';

/** One node of a document tree as the browse tools show it: the stored row without its index columns. */
export type NodeView = Omit<NodeRow, 'indexText' | 'searchVector' | 'tokenCount'>;

/** A `NodeView` as selected: the Data API may return numbers and JSON as text. */
type SelectedNode = Omit<NodeView, 'metadata'> & { metadata: NodeView['metadata'] | string | null };

const COLUMNS = sql.raw(
  'n.id, n.document_id AS "documentId", n.version, n.parent_id AS "parentId", n.node_type AS "nodeType", n.depth, n.title, n.content, n.summary, n.position, n.ordinal, n.category, n.metadata',
);
const LEAF = sql.raw(`n.node_type IN (${LEAF_TYPES.map((t) => `'${t}'`).join(', ')})`);

/**
 * One node by id, with its content and summary.
 *
 * @throws NotFoundError when there is no such node; ValidationError for a malformed id.
 */
export async function getNode(db: Db, access: AccessScope, nodeId: string): Promise<NodeView> {
  checkId(nodeId);
  const [row] = await queryRows<SelectedNode>(
    db,
    sql`SELECT ${COLUMNS} FROM nodes n WHERE n.id = ${nodeId}::uuid AND ${documentInScope(access, sql`n.document_id`)}`,
  );
  if (!row) throw new NotFoundError(`No node with id ${nodeId}`);
  return toView(row);
}

/**
 * The children of a node (sub-sections and leaves) in document order.
 *
 * @throws NotFoundError when there is no such node.
 */
export async function getChildren(db: Db, access: AccessScope, nodeId: string): Promise<NodeView[]> {
  checkId(nodeId);
  const rows = await queryRows<SelectedNode>(
    db,
    sql`SELECT ${COLUMNS} FROM nodes n WHERE n.parent_id = ${nodeId}::uuid AND ${documentInScope(access, sql`n.document_id`)}
        ORDER BY n.position, n.ordinal`,
  );
  if (rows.length === 0) await getNode(db, access, nodeId);
  return rows.map(toView);
}

/**
 * A node with up to `before` leaves preceding it and `after` leaves following it in reading order
 * (the same document version; sections skipped), in reading order.
 *
 * @example const window = await getContextWindow(db, access, hit.nodeId, 2, 2); // 5 paragraphs around the hit
 * @throws NotFoundError when there is no such node.
 */
export async function getContextWindow(
  db: Db,
  access: AccessScope,
  nodeId: string,
  before: number,
  after: number,
): Promise<NodeView[]> {
  checkId(nodeId);
  const b = clampCount(before, 'before');
  const a = clampCount(after, 'after');
  const rows = await queryRows<SelectedNode>(
    db,
    sql`WITH c AS (SELECT document_id, version, ordinal FROM nodes
          WHERE id = ${nodeId}::uuid AND ${documentInScope(access, sql`document_id`)})
        (SELECT ${COLUMNS} FROM nodes n JOIN c ON n.document_id = c.document_id AND n.version = c.version
         WHERE n.id = ${nodeId}::uuid)
        UNION ALL
        (SELECT ${COLUMNS} FROM nodes n JOIN c ON n.document_id = c.document_id AND n.version = c.version
         WHERE n.ordinal < c.ordinal AND ${LEAF} ORDER BY n.ordinal DESC LIMIT ${b}::int)
        UNION ALL
        (SELECT ${COLUMNS} FROM nodes n JOIN c ON n.document_id = c.document_id AND n.version = c.version
         WHERE n.ordinal > c.ordinal AND ${LEAF} ORDER BY n.ordinal LIMIT ${a}::int)`,
  );
  if (!rows.some((row) => row.id === nodeId)) throw new NotFoundError(`No node with id ${nodeId}`);
  return rows.map(toView).sort((x, y) => x.ordinal - y.ordinal);
}

function toView(row: SelectedNode): NodeView {
  return {
    ...row,
    version: Number(row.version),
    depth: Number(row.depth),
    position: Number(row.position),
    ordinal: Number(row.ordinal),
    metadata: jsonColumn(row.metadata, {}),
  };
}

function checkId(nodeId: string): void {
  if (!isUuid(nodeId)) throw new ValidationError(`node id '${nodeId}' is not a UUID`);
}

function clampCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new ValidationError(`${name} must be a non-negative integer (got ${value})`);
  }
  return Math.min(value, 100);
}

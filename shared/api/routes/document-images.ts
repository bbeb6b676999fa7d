import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { jsonColumn } from '#shared/db/json-column.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { readVersionNodes } from '#shared/index/version-nodes.ts';
import { type AccessScope, collectionCondition } from '../../access/scope.ts';
import { type Db, queryRows } from '../../db/client.ts';
import { NO_READY_VERSION, NotFoundError } from '../../errors.ts';
import { imageUrl } from '../../qa/documents/references.ts';
import { accessOf } from '../access.ts';
import { idParam, structureQuery } from '../schemas/documents.ts';
import { parseInput } from '../validate.ts';

/** The section an image sits under: its node id and the titles from the top section down. */
export interface ImageSection {
  id: string;
  title: string;
  /** Titles from the outermost section down to this one (the document's own title excluded). */
  path: string[];
}

/** One image of a document version as `GET /api/v1/documents/{id}/images` lists it. */
export interface DocumentImage {
  id: string;
  nodeId: string;
  filename: string;
  mime: string;
  width: number | null;
  height: number | null;
  size: number;
  /** Place in the document's reading order. */
  ordinal: number;
  /** The PDF page or presentation slide it is on, when the format has pages. */
  page: number | null;
  slide: number | null;
  ocrText: string | null;
  description: string | null;
  /** Why OCR or the description failed for this image, if it did. */
  error: string | null;
  /** Null for an image directly under the document (before any heading). */
  section: ImageSection | null;
  /** Where the image itself is served (`GET /api/v1/documents/{id}/images/{filename}`). */
  url: string;
}

export interface DocumentImages {
  documentId: string;
  version: number;
  items: DocumentImage[];
}

/** An image row as selected: the listed fields read straight from their columns, and what the rest derive from. */
type ImageRow = Omit<DocumentImage, 'page' | 'slide' | 'section' | 'url'> & {
  parentId: string | null;
  metadata: Record<string, unknown> | string | null;
};

interface SectionRow {
  id: string;
  parent_id: string | null;
  node_type: string;
  title: string | null;
}

const numberOr = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * The images of one version of a live document of a readable collection (default: its current version) in reading order,
 * with OCR text, description, the section each sits under and the URL that serves it.
 *
 * @throws NotFoundError when the document does not exist, is deleted, is in a collection the scope
 *   does not read, or has no such version.
 * @example await listDocumentImages(db, access, id) // { documentId, version: 2, items: [{ filename: 'img_001.png', ... }] }
 */
export async function listDocumentImages(
  db: Db,
  access: AccessScope,
  documentId: string,
  version?: number,
): Promise<DocumentImages> {
  const [doc] = await queryRows<{ current_version: number | null }>(
    db,
    sql`SELECT current_version FROM documents WHERE id = ${documentId}::uuid AND deleted_at IS NULL
        AND ${collectionCondition(access, sql`collection`)}`,
  );
  if (!doc) throw new NotFoundError(`No document with id ${documentId}`);
  const wanted = version ?? (doc.current_version === null ? undefined : Number(doc.current_version));
  if (wanted === undefined)
    throw new NotFoundError(`Document ${documentId} has no ready version yet`, NO_READY_VERSION);
  const [sections, images] = await Promise.all([
    // In pages, as every read that grows with a document (the Data API answers at most 1 MiB).
    readVersionNodes<SectionRow>(
      db,
      { documentId, version: wanted },
      sql`n.id, n.parent_id, n.node_type, n.title`,
      sql`n.node_type IN ('document', 'section')`,
    ),
    readPaged<ImageRow>(db, {
      columns: sql`i.id, n.id AS "nodeId", n.parent_id AS "parentId", i.filename, i.mime, i.width, i.height,
                 i.size, n.ordinal, n.metadata, i.ocr_text AS "ocrText", i.description, i.error`,
      from: sql`nodes n JOIN images i ON i.node_id = n.id`,
      where: sql`n.document_id = ${documentId}::uuid AND n.version = ${wanted}::int`,
      key: sql`n.ordinal`,
      keyType: 'int',
      rowBytes: sql`(256 + octet_length(i.filename) + coalesce(octet_length(n.metadata::text), 0)
        + coalesce(octet_length(i.ocr_text), 0) + coalesce(octet_length(i.description), 0)
        + coalesce(octet_length(i.error), 0))`,
    }),
  ]);
  if (sections.length === 0) throw new NotFoundError(`Document ${documentId} has no version ${wanted}`);
  const byId = new Map(sections.map((row) => [row.id, row]));
  return {
    documentId,
    version: wanted,
    items: images.map(({ parentId, metadata, ...row }) => ({
      ...row,
      page: numberOr(jsonColumn(metadata, null)?.page),
      slide: numberOr(jsonColumn(metadata, null)?.slide),
      section: sectionOf(byId, parentId),
      url: imageUrl(documentId, row.filename, version === undefined ? undefined : wanted),
    })),
  };
}

/** The section with this id and its title path; null when it is the document node (or unknown). */
function sectionOf(byId: Map<string, SectionRow>, id: string | null): ImageSection | null {
  const section = id ? byId.get(id) : undefined;
  if (section?.node_type !== 'section') return null;
  const path: string[] = [];
  for (let at: SectionRow | undefined = section; at?.node_type === 'section'; ) {
    path.unshift(at.title ?? '');
    at = at.parent_id ? byId.get(at.parent_id) : undefined;
  }
  return { id: section.id, title: section.title ?? '', path };
}

/**
 * `GET /api/v1/documents/{id}/images[?version=n]`: a document's images with their OCR text,
 * description, size, page or slide and section (for the detail page). Only the database is read.
 */
export function documentImageRoutes(rt: { db: Db }): Hono {
  const app = new Hono();
  app.get('/:id/images', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const { version } = parseInput(structureQuery, c.req.query(), 'query');
    return c.json(await listDocumentImages(rt.db, accessOf(c), id, version));
  });
  return app;
}

import { sql } from 'drizzle-orm';
import { queryRows, schema } from '../../db/index.ts';
import { withWrites } from '../../db/with-writes.ts';
import { storeAttachments } from '../../documents/attachments.ts';
import { removeObject } from '../../documents/remove-object.ts';
import { startStepWrites, versionStatsUpdate } from '../../documents/versions.ts';
import { normalizeTree } from '../../enrich/structure/normalize.ts';
import { NotFoundError } from '../../errors.ts';
import { ANALYZER_VERSION } from '../../index/analyze.ts';
import { indexParsedDocument } from '../../index/index-document.ts';
import {
  detectFileType,
  normalizeOptionsOf,
  parseDocument,
  parseLimitsOf,
  renderMarkdown,
} from '../../parse/index.ts';
import { type ImagesCursor, parseStepInput, versionRefSchema } from '../contract.ts';
import { relativeReader } from '../relative-reader.ts';
import type { PipelineDeps } from '../types.ts';
import { versionPrefix } from '../version-prefix.ts';

const { images } = schema;

export { versionPrefix };

/** Warnings the output carries at most (each cut to 300 characters): the state is capped at 256 KB. */
const WARNINGS_IN_OUTPUT = 10;
/** Warnings kept on the version (all are counted in its stats). */
const WARNINGS_KEPT = 50;

const cut = (warning: string) => (warning.length > 300 ? `${warning.slice(0, 299)}…` : warning);

export interface ParseOutput {
  /** The images to describe: how many, and the cursor DescribeImage starts from. */
  images: ImagesCursor;
  /** The first warnings (all are counted in `warningCount` and the version's stats). */
  warnings: string[];
  warningCount: number;
}

/**
 * Parse: the object -> document tree -> normalized tree -> `nodes` rows of the version; its images
 * and a Markdown rendition (`content.md`, relative image links) written under the version's prefix;
 * one `images` row per image node. Re-running replaces the version's rows (a retried step). What
 * fell back to an offline method (section titles when the chat model failed, structure by length
 * when the embedder did) is counted in the version's stats and the first warnings are returned (in
 * AWS: the Parse state's output, in the execution history). The output is a few hundred bytes
 * whatever the document: the image ids stay in the database.
 *
 * @example await parse({ documentId, version: 1 }, deps) // { images: { left: 3, after: -1 }, warnings: [], warningCount: 0 }
 */
export async function parse(raw: unknown, deps: PipelineDeps): Promise<ParseOutput> {
  const ref = parseStepInput(versionRefSchema, raw, 'Parse');
  const { db, store, config } = deps;
  // The step starts (`startStep`) with its read of the object key and the file name.
  const [version] = await queryRows<{ objectKey: string; filename: string }>(
    db,
    withWrites(
      startStepWrites(ref, 'parse'),
      sql`SELECT v.object_key AS "objectKey", d.filename FROM document_versions v
          JOIN documents d ON d.id = v.document_id
          WHERE v.document_id = ${ref.documentId}::uuid AND v.version = ${ref.version}::int`,
    ),
  );
  if (!version) throw new NotFoundError(`No version ${ref.version} of document ${ref.documentId}`);
  const { filename } = version;

  const bytes = await store.get(version.objectKey);
  const type = detectFileType(bytes, filename);
  const parsed = await parseDocument(
    {
      bytes,
      filename,
      readRelative: relativeReader(store, version.objectKey),
      limits: parseLimitsOf(config),
    },
    type,
  );
  const tree = await normalizeTree(parsed, deps.providers, normalizeOptionsOf(config));

  const prefix = versionPrefix(ref);
  for (const image of tree.images)
    await store.put(prefix + image.name, image.bytes, { contentType: image.mime });
  const markdownKey = `${prefix}content.md`;
  await store.put(markdownKey, renderMarkdown(tree), { contentType: 'text/markdown; charset=utf-8' });

  // The version's counts, Markdown key, type and first warnings go with the nodes' write.
  const { imageNodes } = await indexParsedDocument(db, { ...ref, parsed: tree }, (stats) => [
    versionStatsUpdate(
      ref,
      {
        ...stats,
        bytes: bytes.length,
        warnings: tree.warnings.length,
        attachments: tree.attachments?.length ?? 0,
      },
      {
        markdownKey,
        fileType: type,
        title: tree.title,
        warnings: tree.warnings.slice(0, WARNINGS_KEPT).map(cut),
        analyzerVersion: ANALYZER_VERSION,
      },
    ),
  ]);
  const byName = new Map(tree.images.map((image) => [image.name, image]));
  const rows = imageNodes.flatMap(({ name, nodeId }) => {
    const image = byName.get(name);
    if (!image) return [];
    return [
      {
        nodeId,
        objectKey: prefix + image.name,
        filename: image.name,
        mime: image.mime,
        size: image.bytes.length,
        width: image.width ?? null,
        height: image.height ?? null,
      },
    ];
  });
  // The image rows hang off the nodes just written; earlier attempts' rows went with their nodes.
  if (rows.length > 0) await db.insert(images).values(rows);

  // A message's attachments become documents of their own once its own rows are written.
  if (tree.attachments) {
    const { written, removed } = await storeAttachments(store, ref.documentId, tree.attachments);
    for (const key of removed) await removeObject(db, store, { key });
    if (written.length > 0) deps.ingestObjects?.(written);
  }

  return {
    images: { left: rows.length, after: -1 },
    warnings: tree.warnings.slice(0, WARNINGS_IN_OUTPUT).map(cut),
    warningCount: tree.warnings.length,
  };
}

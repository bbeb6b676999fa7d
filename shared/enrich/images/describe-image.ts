import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import { NotFoundError, reasonOf } from '#shared/errors.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';
import { readableText } from '#shared/llm/ocr/confidence-floor.ts';
import { turnedPng } from '#shared/llm/ocr/raster.ts';
import type { ChatModel, OcrEngine, OcrReading } from '#shared/llm/types.ts';
import { readImageInfo } from '#shared/parse/image-info.ts';
import { pgArray } from '#shared/search/scope.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { fillPrompt, loadPrompt } from '../prompt.ts';
import { isVisionFormat, unreadableReason } from './image-kinds.ts';

interface ImageRow {
  image_id: string;
  object_key: string;
  filename: string;
  mime: string;
  content: string | null;
  index_text: string | null;
  metadata: Record<string, unknown> | string;
  path: string | null;
}

/** What happened to one image. */
export interface ImageOutcome {
  /** The OCR text at or above the confidence floor (null when none). */
  ocrText: string | null;
  description: string | null;
  /** Every reason something was not read (unsupported format, OCR or model failure); null when none. */
  error: string | null;
  /** Text the OCR read below the confidence floor, left out, in words for the version (null when none). */
  leftOut: string | null;
  /** True when an earlier attempt had already stored this image's text (a retried step). */
  alreadyDone: boolean;
}

/** What the image step needs to read images. */
export interface ImageReaders {
  db: Db;
  store: BlobStore;
  ocr?: OcrEngine;
  chat?: ChatModel;
  /** OCR blocks below this confidence (0..1, `providers.ocr.minConfidence`) are left out. */
  ocrFloor?: number;
}

/** The OCR floor when none is given (the default of `providers.ocr.minConfidence`). */
export const DEFAULT_OCR_FLOOR = 0.6;

/**
 * Reads one image node (docs/spec.md#images): OCR text from `ocr`, then a description from `chat`
 * (role describeImage) when a chat model is configured. Both land on the `images` row and on the
 * image node: its content (alt text, description, OCR text), index text and tsvector (weight B), so
 * the text in the image is searchable; the Summarize step embeds the node afterwards. OCR blocks
 * below `ocrFloor` are left out and said in a warning on the version ("page 2: text unreadable (OCR
 * confidence 31%), left out"); the confidence of each block, the turn and the languages that read
 * it stay in the node's metadata. A failure is recorded (`images.error`, node metadata
 * `imageError`, a version warning) and never thrown: one unreadable image does not fail its document.
 *
 * @example await describeImageNode({ db, store, ocr: providers.ocr, chat: providers.chat }, { documentId, version, nodeId });
 */
export async function describeImageNode(
  deps: ImageReaders,
  ref: { documentId: string; version: number; nodeId: string },
): Promise<ImageOutcome> {
  const { db } = deps;
  const [row] = await queryRows<ImageRow>(
    db,
    sql`WITH RECURSIVE up AS (
          SELECT parent_id, NULL::text AS title, 0 AS hop FROM nodes WHERE id = ${ref.nodeId}::uuid
          UNION ALL
          SELECT n.parent_id, n.title, up.hop + 1 FROM nodes n JOIN up ON n.id = up.parent_id
          WHERE n.node_type = 'section'
        )
        SELECT i.id AS image_id, i.object_key, i.filename, i.mime, n.content, n.index_text, n.metadata,
          (SELECT string_agg(title, ' > ' ORDER BY hop DESC) FROM up WHERE title IS NOT NULL) AS path
        FROM images i JOIN nodes n ON n.id = i.node_id
        WHERE i.node_id = ${ref.nodeId}::uuid AND n.document_id = ${ref.documentId}::uuid
          AND n.version = ${ref.version}::int`,
  );
  if (!row) throw new NotFoundError(`image node ${ref.nodeId} of document ${ref.documentId} v${ref.version}`);
  const metadata = jsonColumn<Record<string, unknown>>(row.metadata, {});
  if (metadata.imageRead) {
    return {
      ocrText: (metadata.ocrText as string | undefined) ?? null,
      description: (metadata.description as string | undefined) ?? null,
      error: (metadata.imageError as string | undefined) ?? null,
      leftOut: (metadata.ocrLeftOut as string | undefined) ?? null,
      alreadyDone: true,
    };
  }

  const errors: string[] = [];
  let ocrText: string | null = null;
  let leftOut: string | null = null;
  let ocr: Record<string, unknown> = {};
  let description: string | null = null;
  const skip = unreadableReason(row.mime, row.filename);
  if (skip) errors.push(skip);
  else {
    const bytes = await deps.store.get(row.object_key);
    const mime = readImageInfo(bytes)?.mime ?? row.mime;
    if (deps.ocr) {
      try {
        const reading = await deps.ocr.recognize(bytes, mime);
        const readable = readableText(reading, deps.ocrFloor ?? DEFAULT_OCR_FLOOR);
        ocrText = readable.text || null;
        if (readable.left) leftOut = leftOutWarning(placeOf(row, metadata), readable.left, !!ocrText);
        ocr = ocrMetadata(reading, leftOut);
      } catch (error) {
        errors.push(`OCR (${deps.ocr.name}): ${reasonOf(error)}`);
      }
    }
    if (deps.chat && (isVisionFormat(mime) || mime === 'image/tiff')) {
      try {
        // A TIFF scan is shown as PNG: chat models take PNG, JPEG, GIF and WebP.
        const shown = isVisionFormat(mime)
          ? { bytes, mime }
          : { bytes: await turnedPng(bytes, 0), mime: 'image/png' };
        description = await describe(deps.chat, shown.bytes, shown.mime, row);
      } catch (error) {
        errors.push(`description: ${reasonOf(error)}`);
      }
    } else if (deps.chat) errors.push(`description: ${mime} cannot be shown to a chat model`);
  }
  if (
    deps.ocr &&
    typeof metadata.file === 'string' &&
    !ocrText &&
    !leftOut &&
    !description &&
    errors.length === 0
  ) {
    leftOut = `${metadata.file}: no text found in the picture (OCR)`;
  }
  const error = errors.length > 0 ? errors.join('; ') : null;
  const warnings = [leftOut, error && `${placeOf(row, metadata)}: ${error}`].filter((w): w is string => !!w);
  await store(db, row, { ocrText, description, error, ocr }, { ...ref, warnings });
  return { ocrText, description, error, leftOut, alreadyDone: false };
}

/** Where an image is, for a reader: its page or slide, else its name. */
function placeOf(row: ImageRow, metadata: Record<string, unknown>): string {
  if (typeof metadata.file === 'string') return metadata.file;
  if (typeof metadata.page === 'number') return `page ${metadata.page}`;
  if (typeof metadata.slide === 'number') return `slide ${metadata.slide} (${row.filename})`;
  return row.filename;
}

/** "page 2: text unreadable (OCR confidence 31%), left out", or the part of it when some was kept. */
function leftOutWarning(place: string, left: { blocks: number; confidence: number }, kept: boolean): string {
  const percent = Math.round(left.confidence * 100);
  const what = kept ? `${left.blocks} block${left.blocks === 1 ? '' : 's'} of text` : 'text';
  return `${place}: ${what} unreadable (OCR confidence ${percent}%), left out`;
}

/** What the node keeps of a reading: each block's confidence and whether it was kept, the turn, the languages. */
function ocrMetadata(reading: OcrReading, leftOut: string | null): Record<string, unknown> {
  return {
    ...(reading.confidence !== undefined ? { ocrConfidence: round(reading.confidence) } : {}),
    ...(reading.blocks ? { ocrBlocks: reading.blocks.map((block) => round(block.confidence)) } : {}),
    ...(reading.turn ? { ocrTurn: reading.turn } : {}),
    ...(reading.languages ? { ocrLanguages: reading.languages } : {}),
    ...(leftOut ? { ocrLeftOut: leftOut } : {}),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

async function describe(
  chat: ChatModel,
  bytes: Uint8Array,
  mime: string,
  row: ImageRow,
): Promise<string | null> {
  const prompt = fillPrompt(loadPrompt('describe-image'), { alt: row.content ?? '', path: row.path ?? '' });
  const result = await chat.complete({
    role: 'describeImage',
    system: loadPrompt('describe-image-system'),
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image', bytes, mime },
          { type: 'text', text: prompt },
        ],
      },
    ],
  });
  return result.text.trim() || null;
}

/**
 * The image row, the node and the version's warnings in one statement; the node's index gains the
 * new text, keeping its own.
 */
async function store(
  db: Db,
  row: ImageRow,
  read: {
    ocrText: string | null;
    description: string | null;
    error: string | null;
    ocr: Record<string, unknown>;
  },
  version: { documentId: string; version: number; warnings: string[] },
): Promise<void> {
  const added = [read.description, read.ocrText].filter((t): t is string => !!t).join('\n');
  const content = [row.content, added].filter(Boolean).join('\n');
  const indexText = [row.index_text, added].filter(Boolean).join('\n');
  const extra = buildTsvector([{ text: added, weight: 'B' }]);
  const metadata = {
    imageRead: true,
    ...(read.ocrText ? { ocrText: read.ocrText } : {}),
    ...(read.description ? { description: read.description } : {}),
    ...(read.error ? { imageError: read.error } : {}),
    ...read.ocr,
  };
  const warned =
    version.warnings.length > 0
      ? sql`, v AS (
          UPDATE document_versions SET warnings = warnings || ${pgArray(version.warnings)}::text[]
          WHERE document_id = ${version.documentId}::uuid AND version = ${version.version}::int
        )`
      : sql``;
  await db.execute(sql`
    WITH i AS (
      UPDATE images SET ocr_text = ${read.ocrText}, description = ${read.description}, error = ${read.error}
      WHERE id = ${row.image_id}::uuid
    )${warned}
    UPDATE nodes SET content = ${content}, index_text = ${indexText},
      search_vector = coalesce(search_vector, ''::tsvector) || ${extra.tsvector}::tsvector,
      token_count = token_count + ${extra.tokenCount}::int,
      gram_count = gram_count + ${extra.gramCount}::int,
      metadata = metadata || ${JSON.stringify(metadata)}::jsonb
    WHERE id = (SELECT node_id FROM images WHERE id = ${row.image_id}::uuid)`);
}

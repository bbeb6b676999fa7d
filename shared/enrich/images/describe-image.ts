import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import { NotFoundError, reasonOf } from '#shared/errors.ts';
import { buildTsvector } from '#shared/index/tsvector.ts';
import type { ChatModel, OcrEngine } from '#shared/llm/types.ts';
import { readImageInfo } from '#shared/parse/image-info.ts';
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
  ocrText: string | null;
  description: string | null;
  /** Every reason something was not read (unsupported format, OCR or model failure); null when none. */
  error: string | null;
  /** True when an earlier attempt had already stored this image's text (a retried step). */
  alreadyDone: boolean;
}

/**
 * Reads one image node (docs/spec.md#images): OCR text from `ocr`, then a description from `chat`
 * (role describeImage) when a chat model is configured. Both land on the `images` row and on the
 * image node: its content (alt text, description, OCR text), index text and tsvector (weight B), so
 * the text in the image is searchable; the Summarize step embeds the node afterwards. A failure is
 * recorded (`images.error`, node metadata `imageError`) and never thrown: one unreadable image does
 * not fail its document.
 *
 * @example await describeImageNode({ db, store, ocr: providers.ocr, chat: providers.chat }, { documentId, version, nodeId });
 */
export async function describeImageNode(
  deps: { db: Db; store: BlobStore; ocr?: OcrEngine; chat?: ChatModel },
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
      alreadyDone: true,
    };
  }

  const errors: string[] = [];
  let ocrText: string | null = null;
  let description: string | null = null;
  const skip = unreadableReason(row.mime, row.filename);
  if (skip) errors.push(skip);
  else {
    const bytes = await deps.store.get(row.object_key);
    const mime = readImageInfo(bytes)?.mime ?? row.mime;
    if (deps.ocr) {
      try {
        ocrText = (await deps.ocr.recognize(bytes, mime)).text.trim() || null;
      } catch (error) {
        errors.push(`OCR (${deps.ocr.name}): ${reasonOf(error)}`);
      }
    }
    if (deps.chat && isVisionFormat(mime)) {
      try {
        description = await describe(deps.chat, bytes, mime, row);
      } catch (error) {
        errors.push(`description: ${reasonOf(error)}`);
      }
    } else if (deps.chat) errors.push(`description: ${mime} cannot be shown to a chat model`);
  }
  const error = errors.length > 0 ? errors.join('; ') : null;
  await store(db, row, { ocrText, description, error });
  return { ocrText, description, error, alreadyDone: false };
}

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

/** The image row and node in one statement; the node's index gains the new text, keeping its own. */
async function store(
  db: Db,
  row: ImageRow,
  read: { ocrText: string | null; description: string | null; error: string | null },
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
  };
  await db.execute(sql`
    WITH i AS (
      UPDATE images SET ocr_text = ${read.ocrText}, description = ${read.description}, error = ${read.error}
      WHERE id = ${row.image_id}::uuid
    )
    UPDATE nodes SET content = ${content}, index_text = ${indexText},
      search_vector = coalesce(search_vector, ''::tsvector) || ${extra.tsvector}::tsvector,
      token_count = token_count + ${extra.tokenCount}::int,
      metadata = metadata || ${JSON.stringify(metadata)}::jsonb
    WHERE id = (SELECT node_id FROM images WHERE id = ${row.image_id}::uuid)`);
}

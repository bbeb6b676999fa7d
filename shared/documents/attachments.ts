import { and, asc, eq, isNull, like } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { schema } from '../db/index.ts';
import type { DocumentStatus } from '../db/schema.ts';
import type { DocumentAttachment } from '../parse/types.ts';
import type { BlobStore } from '../storage/types.ts';

const { documents } = schema;

/**
 * Where a message's attachments are stored as objects of their own, each then ingested as its own
 * document: `attachments/<message id>/<n>/<file name>`. The key is the "message > attachment"
 * relation (no column needed), and being outside `documents/` it raises S3 events in AWS like an upload.
 */
export const ATTACHMENT_PREFIX = 'attachments/';

const MESSAGE_OF_KEY = /^attachments\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/\d+\//;
/** Well under S3's 1024-byte key limit once the prefix, id and number are added. */
const MAX_NAME_BYTES = 200;

/** The prefix of one message's attachments. */
export function attachmentPrefix(messageId: string): string {
  return `${ATTACHMENT_PREFIX}${messageId}/`;
}

/** A file name as one safe key segment: no separators or control characters, at most 200 bytes. */
function keySegment(filename: string): string {
  let name = [...filename]
    .map((char) => (char < ' ' || char === '\u007f' || char === '/' || char === '\\' ? '_' : char))
    .join('')
    .trim();
  if (name === '' || name === '.' || name === '..') name = 'attachment';
  while (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) name = name.slice(0, -1);
  return name;
}

/** The key of a message's n-th attachment (counted from 1, so two files of one name never collide). */
export function attachmentKey(messageId: string, n: number, filename: string): string {
  return `${attachmentPrefix(messageId)}${n}/${keySegment(filename)}`;
}

/** The id of the message a key's object is attached to, when it is an attachment's key. */
export function messageIdOfKey(key: string): string | undefined {
  return MESSAGE_OF_KEY.exec(key)?.[1];
}

/**
 * Writes a message's attachments as objects of their own and deletes the ones an earlier version
 * had that this one does not (their documents go when the object does: an S3 event, or
 * `removeObject`). Returns the keys written, in the message's order.
 */
export async function storeAttachments(
  store: BlobStore,
  messageId: string,
  attachments: readonly DocumentAttachment[],
): Promise<{ written: string[]; removed: string[] }> {
  const written: string[] = [];
  for (const [i, attachment] of attachments.entries()) {
    const key = attachmentKey(messageId, i + 1, attachment.filename);
    await store.put(key, attachment.bytes, { contentType: attachment.mime });
    written.push(key);
  }
  const keep = new Set(written);
  const removed: string[] = [];
  for await (const blob of store.list(attachmentPrefix(messageId))) {
    if (keep.has(blob.key)) continue;
    await store.delete(blob.key);
    removed.push(blob.key);
  }
  return { written, removed };
}

/** A document a message carried, as the message's detail lists it. */
export interface AttachedDocument {
  id: string;
  filename: string;
  fileType: string;
  status: DocumentStatus;
}

/** The live documents attached to a message, in the message's order. */
export async function listAttachments(db: Db, messageId: string): Promise<AttachedDocument[]> {
  const rows = await db
    .select({
      id: documents.id,
      key: documents.key,
      filename: documents.filename,
      fileType: documents.fileType,
      status: documents.status,
    })
    .from(documents)
    .where(and(like(documents.key, `${attachmentPrefix(messageId)}%`), isNull(documents.deletedAt)))
    .orderBy(asc(documents.key));
  const n = (key: string) => Number(key.slice(attachmentPrefix(messageId).length).split('/')[0]);
  return rows.sort((a, b) => n(a.key) - n(b.key)).map(({ key: _key, ...attached }) => attached);
}

/** The message a document was attached to, when it was (and the message is still there). */
export async function messageOf(db: Db, key: string): Promise<{ id: string; filename: string } | undefined> {
  const id = messageIdOfKey(key);
  if (!id) return undefined;
  const [row] = await db
    .select({ id: documents.id, filename: documents.filename })
    .from(documents)
    .where(and(eq(documents.id, id), isNull(documents.deletedAt)));
  return row;
}

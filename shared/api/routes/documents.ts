import { Hono } from 'hono';
import {
  type AccessScope,
  allows,
  assertCollectionName,
  collectionOfKey,
  uploadPrefix,
} from '../../access/index.ts';
import { diffVersions } from '../../diff/index.ts';
import {
  assertWritable,
  deleteDocument,
  getDocument,
  listAttachments,
  listDocuments,
  listDocumentTopics,
  listVersions,
  messageOf,
  withActivity,
} from '../../documents/index.ts';
import { NotFoundError, reasonOf, ValidationError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { getChildren, getDocumentStructure, getNode } from '../../search/index.ts';
import { LEAF_TYPES } from '../../search/scope.ts';
import { removeStaged, stagingDir } from '../../storage/staging.ts';
import { accessOf, assertMayWriteInto, writableOf } from '../access.ts';
import { readMultipartFiles, type UploadedFile } from '../multipart.ts';
import {
  diffQuery,
  documentListQuery,
  idParam,
  sectionParam,
  structureQuery,
  uploadUrlBody,
} from '../schemas/documents.ts';
import { parseInput } from '../validate.ts';
import { presignUpload } from './presign.ts';

/** The longest a stored file or folder name may be, in UTF-8 bytes (file systems allow 255). */
const MAX_SEGMENT_BYTES = 200;

/**
 * The key an uploaded file is stored under: `uploads/` + its name, or `collections/<name>/` + its
 * name when it is uploaded into a chosen collection (shared/access). A relative path in the name (the
 * CLI sends one) is kept, cleaned of control characters (NUL among them), empty and `.` segments;
 * `\` separates like `/`; a segment longer than 200 UTF-8 bytes is shortened, keeping its extension;
 * `..` is refused.
 *
 * @throws ValidationError naming the file.
 */
export function uploadKey(name: string, collection?: string): string {
  const segments = name
    .split(/[\\/]/)
    .map((segment) =>
      shorten(
        [...segment]
          .filter((ch) => ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) !== 127)
          .join('')
          .trim(),
      ),
    )
    .filter((segment) => segment && segment !== '.');
  if (segments.length === 0 || segments.includes('..')) {
    throw new ValidationError(`Unusable file name: ${JSON.stringify(name)}`);
  }
  return `${collection === undefined ? 'uploads/' : uploadPrefix(collection)}${segments.join('/')}`;
}

function shorten(segment: string): string {
  if (Buffer.byteLength(segment) <= MAX_SEGMENT_BYTES) return segment;
  const dot = segment.lastIndexOf('.');
  const extension = dot > 0 && segment.length - dot <= 16 ? segment.slice(dot) : '';
  let stem = segment.slice(0, segment.length - extension.length);
  while (Buffer.byteLength(stem + extension) > MAX_SEGMENT_BYTES) stem = [...stem].slice(0, -1).join('');
  return `${stem.trimEnd()}${extension}`;
}

/**
 * Submits the staged files of an upload, each on its own: a name that cannot be used, or a key the
 * bucket refuses, is `rejected` with its reason, the others go on.
 *
 * @throws ValidationError when no file is left to submit.
 */
async function submitUploads(
  rt: Runtime,
  files: UploadedFile[],
  target: { collection: string | undefined; writable: AccessScope },
) {
  if (files.length === 0) throw new ValidationError('multipart field "files" must hold one or more files');
  const named = files.map((file) => {
    try {
      const key = uploadKey(file.name, target.collection);
      const collection = collectionOfKey(key, rt.config.collections);
      if (!allows(target.writable, collection)) {
        return { ...file, error: `You may not add documents to the collection ${collection}` };
      }
      return { ...file, key, filename: key.slice(key.lastIndexOf('/') + 1) };
    } catch (error) {
      return { ...file, error: reasonOf(error) };
    }
  });
  const accepted = named.filter((f): f is typeof f & { key: string; filename: string } => 'key' in f);
  if (accepted.length === 0) {
    throw new ValidationError(named.map((f) => ('error' in f ? f.error : '')).join('; '));
  }
  const submitted = await rt.ingest.submit(
    accepted.map((f) => ({ key: f.key, filename: f.filename, staged: f.staged, contentType: f.contentType })),
  );
  let next = 0;
  return named.map((file) => {
    if ('error' in file) {
      return {
        filename: file.name,
        status: 'rejected',
        error: { code: 'validation_failed', message: file.error },
      };
    }
    const s = submitted[next++];
    if (s?.status === 'rejected') {
      return {
        filename: file.filename,
        key: s.key,
        status: 'rejected',
        error: { code: 'validation_failed', message: s.error },
      };
    }
    return {
      id: s?.documentId,
      key: s?.key,
      filename: file.filename,
      status: s?.status,
      ...(s?.version === undefined ? {} : { version: s.version }),
    };
  });
}

/** Upload (direct or by presigned URL), list, detail, versions, diff, reindex, structure and delete. */
export function documentRoutes(rt: Runtime): Hono {
  const app = new Hono();

  app.post('/upload', async (c) => {
    const { maxFileBytes, maxUploadBytes } = rt.config.limits;
    // Each file is staged on disk as it arrives; whatever happens next, the staged copies go.
    const files = await readMultipartFiles(
      c.req.raw,
      { maxFileBytes, maxTotalBytes: maxUploadBytes },
      stagingDir(rt.config.dataDir),
    );
    try {
      const collection = c.req.query('collection') || undefined;
      if (collection !== undefined) assertCollectionName(collection);
      const target = { collection, writable: writableOf(c) };
      return c.json({ success: true, documents: await submitUploads(rt, files, target) });
    } finally {
      await removeStaged(files.map((file) => file.staged));
    }
  });

  app.post('/upload-url', async (c) => {
    const body = parseInput(uploadUrlBody, await c.req.json().catch(() => undefined), 'body');
    const key = uploadKey(body.filename, body.collection);
    assertMayWriteInto(c, collectionOfKey(key, rt.config.collections));
    const result = await presignUpload(rt, { ...body, key });
    return c.json(result, result.supported ? 200 : 501);
  });

  app.get('/', async (c) => {
    const query = parseInput(documentListQuery, c.req.query(), 'query');
    const { items, total } = await listDocuments(rt.db, accessOf(c), { ...query, topicId: query.topic });
    const activityOf = (key: string) => rt.ingest.activity(key);
    return c.json({
      items: items.map((doc) => withActivity(doc, activityOf)),
      total,
      limit: query.limit,
      offset: query.offset,
    });
  });

  app.get('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const access = accessOf(c);
    const document = withActivity(await getDocument(rt.db, access, id), (key) => rt.ingest.activity(key));
    const [versions, topics, attachments, message] = await Promise.all([
      listVersions(rt.db, access, id),
      listDocumentTopics(rt.db, access, id),
      listAttachments(rt.db, id),
      messageOf(rt.db, document.key),
    ]);
    return c.json({ ...document, versions, topics, attachments, message: message ?? null });
  });

  app.post('/:id/reindex', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    await assertWritable(rt.db, accessOf(c), writableOf(c), id);
    const { submitted } = await rt.ingest.reindex(id);
    return c.json({ success: true, id, key: submitted.key, status: submitted.status }, 202);
  });

  app.get('/:id/versions', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const access = accessOf(c);
    await getDocument(rt.db, access, id);
    return c.json({ versions: await listVersions(rt.db, access, id) });
  });

  app.get('/:id/structure', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const { version } = parseInput(structureQuery, c.req.query(), 'query');
    const access = accessOf(c);
    await getDocument(rt.db, access, id);
    return c.json(await getDocumentStructure(rt.db, access, id, version));
  });

  // The document view's section tree shows summaries; this is the text itself, read on expanding.
  app.get('/:id/sections/:section/leaves', async (c) => {
    const { id, section } = parseInput(sectionParam, c.req.param(), 'path');
    const access = accessOf(c);
    const children = await getChildren(rt.db, access, section);
    const owner = children[0]?.documentId ?? (await getNode(rt.db, access, section)).documentId;
    if (owner !== id) throw new NotFoundError(`No section ${section} in document ${id}`);
    const leaves = children.filter((node) => (LEAF_TYPES as readonly string[]).includes(node.nodeType));
    return c.json({
      items: leaves.map((node) => ({ id: node.id, kind: node.nodeType, content: node.content ?? '' })),
    });
  });

  app.get('/:id/diff', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const range = parseInput(diffQuery, c.req.query(), 'query');
    return c.json(await diffVersions(rt.db, accessOf(c), id, range));
  });

  app.delete('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    await assertWritable(rt.db, accessOf(c), writableOf(c), id);
    await deleteDocument(rt.db, rt.store, id);
    return c.json({ success: true, id });
  });

  return app;
}

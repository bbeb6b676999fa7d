import { Hono } from 'hono';
import { diffVersions } from '../../diff/index.ts';
import {
  deleteDocument,
  getDocument,
  listDocuments,
  listDocumentTopics,
  listVersions,
} from '../../documents/index.ts';
import { ValidationError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { getDocumentStructure } from '../../search/index.ts';
import {
  diffQuery,
  documentListQuery,
  idParam,
  structureQuery,
  uploadUrlBody,
} from '../schemas/documents.ts';
import { parseInput } from '../validate.ts';
import { presignUpload } from './presign.ts';

/**
 * The key an uploaded file is stored under: `uploads/` + its name. A relative path in the name (the
 * CLI sends one) is kept, cleaned of control characters, empty and `.` segments; `..` is refused.
 */
export function uploadKey(name: string): string {
  const segments = name
    .split(/[\\/]/)
    .map((segment) =>
      [...segment]
        .filter((ch) => ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) !== 127)
        .join('')
        .trim(),
    )
    .filter((segment) => segment && segment !== '.');
  if (segments.length === 0 || segments.includes('..')) {
    throw new ValidationError(`Unusable file name: ${JSON.stringify(name)}`);
  }
  return `uploads/${segments.join('/')}`;
}

/** Upload (direct or by presigned URL), list, detail, versions, diff, reindex, structure and delete. */
export function documentRoutes(rt: Runtime): Hono {
  const app = new Hono();

  app.post('/upload', async (c) => {
    const body = await c.req.parseBody({ all: true });
    const files = [body.files, body.file].flat().filter((f): f is File => f instanceof File);
    if (files.length === 0) throw new ValidationError('multipart field "files" must hold one or more files');
    const accepted = await Promise.all(
      files.map(async (file) => ({
        key: uploadKey(file.name),
        filename: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
        contentType: file.type || undefined,
      })),
    );
    const submitted = await rt.ingest.submit(accepted);
    return c.json({
      success: true,
      documents: submitted.map((s, i) => ({
        id: s.documentId,
        key: s.key,
        filename: accepted[i]?.filename,
        status: s.status,
        ...(s.version === undefined ? {} : { version: s.version }),
      })),
    });
  });

  app.post('/upload-url', async (c) => {
    const body = parseInput(uploadUrlBody, await c.req.json().catch(() => undefined), 'body');
    const key = uploadKey(body.filename);
    const result = await presignUpload(rt, { ...body, key });
    return c.json(result, result.supported ? 200 : 501);
  });

  app.get('/', async (c) => {
    const query = parseInput(documentListQuery, c.req.query(), 'query');
    const { items, total } = await listDocuments(rt.db, { ...query, topicId: query.topic });
    return c.json({ items, total, limit: query.limit, offset: query.offset });
  });

  app.get('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const document = await getDocument(rt.db, id);
    const [versions, topics] = await Promise.all([listVersions(rt.db, id), listDocumentTopics(rt.db, id)]);
    return c.json({ ...document, versions, topics });
  });

  app.post('/:id/reindex', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const { submitted } = await rt.ingest.reindex(id);
    return c.json({ success: true, id, key: submitted.key, status: submitted.status }, 202);
  });

  app.get('/:id/versions', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    await getDocument(rt.db, id);
    return c.json({ versions: await listVersions(rt.db, id) });
  });

  app.get('/:id/structure', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const { version } = parseInput(structureQuery, c.req.query(), 'query');
    await getDocument(rt.db, id);
    return c.json(await getDocumentStructure(rt.db, id, version));
  });

  app.get('/:id/diff', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const range = parseInput(diffQuery, c.req.query(), 'query');
    return c.json(await diffVersions(rt.db, id, range));
  });

  app.delete('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    await deleteDocument(rt.db, rt.store, id);
    return c.json({ success: true, id });
  });

  return app;
}

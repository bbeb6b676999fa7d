import { Hono } from 'hono';
import { z } from 'zod';
import { deleteDocument, getDocument, listDocuments, listVersions } from '../../documents/index.ts';
import { ValidationError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { getDocumentStructure } from '../../search/index.ts';
import { parseInput } from '../validate.ts';

const idParam = z.object({ id: z.uuid() });
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(['queued', 'processing', 'ready', 'failed']).optional(),
  q: z.string().max(500).optional(),
});
const structureQuery = z.object({ version: z.coerce.number().int().positive().optional() });

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

/** Upload, list, detail, versions, structure and delete. */
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
      })),
    });
  });

  app.get('/', async (c) => {
    const query = parseInput(listQuery, c.req.query(), 'query');
    return c.json(await listDocuments(rt.db, query));
  });

  app.get('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const document = await getDocument(rt.db, id);
    return c.json({ ...document, versions: await listVersions(rt.db, id) });
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

  app.delete('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    await deleteDocument(rt.db, rt.store, id);
    return c.json({ success: true, id });
  });

  return app;
}

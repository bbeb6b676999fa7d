import { Hono } from 'hono';
import { listDocuments } from '../../documents/index.ts';
import { getTopic, listTopics } from '../../documents/topics.ts';
import { mergeTopics } from '../../enrich/topics/merge.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { accessOf, assertMayWriteAll } from '../access.ts';
import { idParam, topicListQuery, topicMergeBody } from '../schemas/documents.ts';
import { parseInput } from '../validate.ts';

/** The documents of a topic shown with its detail. */
const DETAIL_DOCUMENTS = 50;

/** Topics: list, detail with documents, a topic's documents (paginated), merge. */
export function topicRoutes(rt: Runtime): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const query = parseInput(topicListQuery, c.req.query(), 'query');
    const { items, total } = await listTopics(rt.db, accessOf(c), query);
    return c.json({ items, total, limit: query.limit, offset: query.offset });
  });

  app.post('/merge', async (c) => {
    const body = parseInput(topicMergeBody, await c.req.json().catch(() => undefined), 'body');
    // A topic spans collections and its name is everyone's: merging is for who may change them all.
    assertMayWriteAll(c, 'merge topics');
    const merged = await mergeTopics(rt.db, body);
    return c.json({ success: true, ...(await getTopic(rt.db, accessOf(c), merged.topicId)) });
  });

  app.get('/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const access = accessOf(c);
    const topic = await getTopic(rt.db, access, id);
    const { items } = await listDocuments(rt.db, access, { topicId: id, limit: DETAIL_DOCUMENTS, offset: 0 });
    return c.json({ ...topic, documents: items });
  });

  app.get('/:id/documents', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const query = parseInput(topicListQuery.omit({ q: true }), c.req.query(), 'query');
    const access = accessOf(c);
    await getTopic(rt.db, access, id);
    const { items, total } = await listDocuments(rt.db, access, { ...query, topicId: id });
    return c.json({ items, total, limit: query.limit, offset: query.offset });
  });

  return app;
}

import { Hono } from 'hono';
import { z } from 'zod';
import type { Runtime } from '../../runtime/runtime.ts';
import { search } from '../../search/index.ts';
import { searchOptionsSchema } from '../../search/options.ts';
import { accessOf } from '../access.ts';
import { collectionName } from '../schemas/documents.ts';
import { parseInput } from '../validate.ts';

const uuidList = z
  .string()
  .transform((s) => s.split(',').filter(Boolean))
  .pipe(z.array(z.uuid()));

/** `GET /api/search` query (also what the OpenAPI description is generated from). */
export const searchQuery = searchOptionsSchema.extend({
  q: z.string().trim().min(1).max(1000),
  document_ids: uuidList.optional(),
  case_sensitive: z.enum(['true', 'false']).optional(),
  collection: collectionName.optional().describe('Search only this collection'),
});

/** `GET /api/search?q=&kind=keyword|fulltext|semantic|hybrid&limit=`: ranked leaf nodes as JSON. */
export function searchRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/', async (c) => {
    const query = parseInput(searchQuery, c.req.query(), 'query');
    const started = performance.now();
    const results = await search(
      { ...rt.qa, access: accessOf(c) },
      {
        query: query.q,
        kind: query.kind,
        limit: query.limit,
        filters: { version: query.version, documentIds: query.document_ids },
        keywordMode: query.mode,
        caseSensitive: query.case_sensitive === 'true',
        rerank: query.rerank === 'true',
        signal: c.req.raw.signal,
      },
    );
    return c.json({
      query: query.q,
      kind: query.kind,
      took_ms: Math.round(performance.now() - started),
      results,
    });
  });
  return app;
}

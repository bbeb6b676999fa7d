import { count, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { schema } from '../../db/index.ts';
import { READABLE_TYPES } from '../../parse/file-types.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { openApiDocument } from '../openapi.ts';

/**
 * Health, a status summary for the page (providers in force, document counts, the file types read,
 * so the page never keeps a second list), and the OpenAPI description.
 */
export function metaRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ ok: true }));
  app.get('/status', async (c) => {
    const { documents } = schema;
    const rows = await rt.db
      .select({ status: documents.status, fileType: documents.fileType, n: count() })
      .from(documents)
      .where(isNull(documents.deletedAt))
      .groupBy(documents.status, documents.fileType);
    const byStatus: Record<string, number> = {};
    const byType: Record<string, number> = {};
    for (const row of rows) {
      byStatus[row.status] = (byStatus[row.status] ?? 0) + Number(row.n);
      byType[row.fileType] = (byType[row.fileType] ?? 0) + Number(row.n);
    }
    return c.json({
      providers: {
        label: rt.providers.label,
        chat: rt.providers.chat?.provider ?? 'offline',
        embedder: { model: rt.providers.embedder.model, dimensions: rt.providers.embedder.dimensions },
      },
      documents: { byStatus, byType },
      readableTypes: READABLE_TYPES,
    });
  });
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  return app;
}

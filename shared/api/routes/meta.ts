import { Hono } from 'hono';
import { type AccessScope, allows, type CollectionSettings } from '../../access/index.ts';
import { countDocuments } from '../../documents/queries.ts';
import { READABLE_TYPES } from '../../parse/file-types.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { accessOf } from '../access.ts';
import { openApiDocument } from '../openapi.ts';

/**
 * Health, a status summary for the page (providers in force, document counts, the file types read,
 * so the page never keeps a second list, the collections one may read), and the OpenAPI description.
 */
export function metaRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/health', (c) => c.json({ ok: true }));
  app.get('/status', async (c) => {
    const access = accessOf(c);
    const { byStatus, byType, byCollection } = await countDocuments(rt.db, access);
    return c.json({
      providers: {
        label: rt.providers.label,
        chat: rt.providers.chat?.provider ?? 'offline',
        embedder: { model: rt.providers.embedder.model, dimensions: rt.providers.embedder.dimensions },
      },
      documents: { byStatus, byType },
      readableTypes: READABLE_TYPES,
      collections: collectionList(rt.config.collections, byCollection, access),
    });
  });
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  return app;
}

/**
 * The readable collections for the page's filter and upload picker: those holding documents and
 * those the configuration names (the default, `collections.prefixes`), with their document counts.
 */
function collectionList(
  settings: CollectionSettings,
  counts: Record<string, number>,
  access: AccessScope,
): { name: string; documents: number }[] {
  const names = new Set([settings.default, ...Object.values(settings.prefixes), ...Object.keys(counts)]);
  return [...names]
    .filter((name) => allows(access, name))
    .sort()
    .map((name) => ({ name, documents: counts[name] ?? 0 }));
}

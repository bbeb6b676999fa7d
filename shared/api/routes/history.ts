import { count, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { schema } from '../../db/index.ts';
import { NotFoundError } from '../../errors.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { parseInput } from '../validate.ts';

const { qaHistory } = schema;

export const historyListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** The flow that answered: direct, agent, two-stage, documents. */
  mode: z.enum(['direct', 'agent', 'two-stage', 'documents']).optional(),
});
const idParam = z.object({ id: z.uuid() });

type Row = typeof qaHistory.$inferSelect;

/**
 * A history entry as listed: the stored row (question, mode, answer, the whole response, createdAt,
 * as the web client reads it) with the response's confidence, sources and references brought up.
 */
function item(row: Row) {
  const response = row.response as {
    confidence?: string;
    sources?: unknown[];
    requested_mode?: string;
    references?: unknown[];
  };
  return {
    ...row,
    requested_mode: response.requested_mode ?? null,
    confidence: response.confidence ?? null,
    sources: response.sources ?? [],
    ...(response.references ? { references: response.references } : {}),
  };
}

/**
 * `GET /api/qa/history?limit&offset&mode`: past questions with their answers, modes and sources
 * (`{ items, total }`); `GET /api/qa/history/{id}`: one entry.
 */
export function historyRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/history', async (c) => {
    const { limit, offset, mode } = parseInput(historyListQuery, c.req.query(), 'query');
    const where = mode ? eq(qaHistory.mode, mode) : undefined;
    const [rows, totals] = await Promise.all([
      rt.db
        .select()
        .from(qaHistory)
        .where(where)
        .orderBy(desc(qaHistory.createdAt))
        .limit(limit)
        .offset(offset),
      rt.db.select({ n: count() }).from(qaHistory).where(where),
    ]);
    return c.json({ items: rows.map(item), total: Number(totals[0]?.n ?? 0), limit, offset });
  });
  app.get('/history/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const [row] = await rt.db.select().from(qaHistory).where(eq(qaHistory.id, id));
    if (!row) throw new NotFoundError(`No history entry ${id}`);
    return c.json(item(row));
  });
  return app;
}

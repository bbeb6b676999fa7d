import { and, count, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { schema } from '../../db/index.ts';
import { NotFoundError } from '../../errors.ts';
import { hideUnreadableQuotes } from '../../qa/conversation/readable-turns.ts';
import { ownedBy } from '../../qa/conversation/store.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { accessOf } from '../access.ts';
import { ownerOf } from '../owner.ts';
import { parseInput } from '../validate.ts';

const { qaHistory, conversations } = schema;

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
export function historyItem(row: Row) {
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
 * `GET /api/qa/history?limit&offset&mode`: past questions with their answers, modes, sources and
 * conversation (`{ items, total }`), the signed-in user's only (one user never sees another's); `GET /api/qa/history/{id}`: one entry.
 */
export function historyRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/history', async (c) => {
    const { limit, offset, mode } = parseInput(historyListQuery, c.req.query(), 'query');
    const where = and(ownedBy(ownerOf(c)), mode ? eq(qaHistory.mode, mode) : undefined);
    const joined = eq(conversations.id, qaHistory.conversationId);
    const [rows, totals] = await Promise.all([
      rt.db
        .select({ entry: qaHistory })
        .from(qaHistory)
        .innerJoin(conversations, joined)
        .where(where)
        .orderBy(desc(qaHistory.createdAt))
        .limit(limit)
        .offset(offset),
      rt.db.select({ n: count() }).from(qaHistory).innerJoin(conversations, joined).where(where),
    ]);
    return c.json({
      items: (
        await hideUnreadableQuotes(
          rt.db,
          accessOf(c),
          rows.map((row) => row.entry),
        )
      ).map(historyItem),
      total: Number(totals[0]?.n ?? 0),
      limit,
      offset,
    });
  });
  app.get('/history/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const [row] = await rt.db
      .select({ entry: qaHistory })
      .from(qaHistory)
      .innerJoin(conversations, eq(conversations.id, qaHistory.conversationId))
      .where(and(eq(qaHistory.id, id), ownedBy(ownerOf(c))));
    if (!row) throw new NotFoundError(`No history entry ${id}`);
    const [visible] = await hideUnreadableQuotes(rt.db, accessOf(c), [row.entry]);
    return c.json(historyItem(visible ?? row.entry));
  });
  return app;
}

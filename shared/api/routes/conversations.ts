import { Hono } from 'hono';
import { z } from 'zod';
import { NotFoundError } from '../../errors.ts';
import {
  conversationEntries,
  deleteConversation,
  findConversation,
  listConversations,
} from '../../qa/conversation/store.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { accessOf } from '../access.ts';
import { ownerOf } from '../owner.ts';
import { parseInput } from '../validate.ts';
import { historyItem } from './history.ts';

export const conversationListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
const idParam = z.object({ id: z.uuid() });

/**
 * The signed-in user's conversations (everyone's on the local server): `GET /api/qa/conversations`
 * (title, last activity, turn count), `GET /api/qa/conversations/{id}` (the turns with their
 * answers, modes and sources, and the filters in force), `DELETE /api/qa/conversations/{id}`.
 * Another user's conversation is answered as not found.
 */
export function conversationRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/conversations', async (c) => {
    const page = parseInput(conversationListQuery, c.req.query(), 'query');
    return c.json({ ...(await listConversations(rt.db, ownerOf(c), page)), ...page });
  });
  app.get('/conversations/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    const conversation = await findConversation(rt.db, id, ownerOf(c));
    if (!conversation) throw new NotFoundError(`No conversation ${id}`);
    const turns = (await conversationEntries(rt.db, accessOf(c), id)).map(historyItem);
    return c.json({
      id: conversation.id,
      title: conversation.title,
      filters: conversation.filters,
      created_at: conversation.createdAt,
      updated_at: conversation.updatedAt,
      turns,
    });
  });
  app.delete('/conversations/:id', async (c) => {
    const { id } = parseInput(idParam, c.req.param(), 'path');
    if (!(await deleteConversation(rt.db, id, ownerOf(c)))) throw new NotFoundError(`No conversation ${id}`);
    return c.json({ success: true, id });
  });
  return app;
}

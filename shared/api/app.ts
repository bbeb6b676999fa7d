import { Hono } from 'hono';
import type { Runtime } from '../runtime/runtime.ts';
import type { FolderWatcher } from '../watch/index.ts';
import { askRateLimit } from './ask-throttle.ts';
import { handleError } from './errors.ts';
import { type RequestGuardOptions, requestGuard } from './request-guard.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { documentImageRoutes } from './routes/document-images.ts';
import { documentRoutes } from './routes/documents.ts';
import { historyRoutes } from './routes/history.ts';
import { imageRoutes } from './routes/images.ts';
import { metaRoutes } from './routes/meta.ts';
import { qaRoutes } from './routes/qa.ts';
import { searchRoutes } from './routes/search.ts';
import { summarizeRoutes } from './routes/summarize.ts';
import { topicRoutes } from './routes/topics.ts';
import { watchRoutes } from './routes/watch.ts';
import { serveWebClient } from './web-client.ts';

/**
 * The HTTP app: `/api/*` plus the web client (web/dist) on every other path. The same app runs
 * locally and in Lambda; the local server passes `guard` (Host allow-list, origin and client-header
 * checks, access token, security headers: docs/security.md), which then covers every route.
 */
export function createApp(
  rt: Runtime,
  options: { watcher?: FolderWatcher; controlKey?: string; guard?: RequestGuardOptions } = {},
): Hono {
  const app = new Hono();
  app.onError(handleError);
  if (options.guard) app.use('*', requestGuard(options.guard));
  app.notFound((c) =>
    c.json({ error: { code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` } }, 404),
  );
  // The upload's size limits are enforced while its body streams in (routes/documents.ts, multipart.ts):
  // hono's bodyLimit would hold a chunked body whole before deciding.
  // Each user's questions and summaries (model calls) are throttled; off locally by default.
  const throttle = askRateLimit(rt.db, rt.config.limits.askRate);
  app.use('/api/qa/ask', throttle);
  app.use('/api/qa/summarize', throttle);
  app.route('/api', metaRoutes(rt));
  app.route('/api/documents', documentRoutes(rt));
  app.route('/api/topics', topicRoutes(rt));
  app.route('/api/search', searchRoutes(rt));
  app.route('/api/watch', watchRoutes(options.watcher, options.controlKey));
  // Before qaRoutes: this history (paging, mode filter, entries by id) answers GET /api/qa/history.
  app.route('/api/qa', historyRoutes(rt));
  app.route('/api/qa', conversationRoutes(rt));
  app.route('/api/qa', summarizeRoutes(rt));
  app.route('/api/qa', qaRoutes(rt));
  app.route('/api/v1/documents', documentImageRoutes(rt));
  app.route('/api/v1/documents', imageRoutes(rt));
  serveWebClient(app);
  return app;
}

import { Hono } from 'hono';
import type { AccessGrants } from '#shared/access/index.ts';
import { createApp } from '#shared/api/app.ts';
import type { Runtime } from '#shared/runtime/runtime.ts';
import type { TokenClaims } from './cognito-token.ts';
import { requireUser, type UserVariables } from './require-user.ts';

/**
 * The HTTP app of the ask function: the local server's app behind a user token on every /api route
 * but the health check. The verified claims are the request's `user`, so what belongs to a user
 * (conversations and their history) is the Cognito subject's alone, and its Cognito groups, through
 * `grants`, the collections it reads and changes.
 */
export function lambdaApp(
  runtime: Runtime,
  verifyToken: (token: string) => Promise<TokenClaims>,
  grants: AccessGrants,
): Hono<{ Variables: UserVariables }> {
  const app = new Hono<{ Variables: UserVariables }>();
  app.use('/api/*', requireUser(verifyToken, grants));
  app.route('/', createApp(runtime));
  return app;
}

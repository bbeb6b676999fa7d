import type { Context } from 'hono';
import type { Owner } from '../qa/conversation/store.ts';

/**
 * Who the request is from, for what belongs to a user (conversations and their history): the
 * subject of the verified token a sign-in middleware put on the context as `user` (the Lambda
 * app's Cognito check), or null on the local server, which has one user.
 */
export function ownerOf(c: Context): Owner {
  const user = c.get('user' as never) as { sub?: unknown } | undefined;
  return typeof user?.sub === 'string' ? user.sub : null;
}

import type { Context } from 'hono';
import { type AccessScope, ALL_COLLECTIONS, allows, narrowScope } from '../access/scope.ts';
import { ForbiddenError } from '../errors.ts';

/**
 * What this request may read: the scope a sign-in middleware put on the context as `access` (the
 * Lambda app's, from the user's Cognito groups: functions/ask/require-user.ts), else every
 * collection (the local server: one user with all rights), narrowed by `?collection=`.
 *
 * @throws ValidationError when `collection` is not a collection name.
 */
export function accessOf(c: Context): AccessScope {
  const granted = c.get('access' as never) as AccessScope | undefined;
  return narrowScope(granted ?? ALL_COLLECTIONS, c.req.query('collection') || undefined);
}

/**
 * The collections this request may change (upload into, delete, reindex): the `writeAccess` a sign-in
 * middleware put on the context, else every collection (the local server).
 */
export function writableOf(c: Context): AccessScope {
  return (c.get('writeAccess' as never) as AccessScope | undefined) ?? ALL_COLLECTIONS;
}

/** Throws ForbiddenError unless this request may write into the collection (an upload's target). */
export function assertMayWriteInto(c: Context, collection: string): void {
  if (!allows(writableOf(c), collection)) {
    throw new ForbiddenError(`You may not add documents to the collection ${collection}`);
  }
}

/**
 * Throws ForbiddenError unless this request may change every collection (the local server, an
 * `admin` member): for changes shared by all collections, such as merging topics.
 */
export function assertMayWriteAll(c: Context, action: string): void {
  if (writableOf(c).kind !== 'all') {
    throw new ForbiddenError(`Only a user who may change every collection may ${action}`);
  }
}

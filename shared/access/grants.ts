import { z } from 'zod';
import { COLLECTION_NAME } from './collection-name.ts';
import { type AccessScope, ALL_COLLECTIONS, readableCollections } from './scope.ts';

/** The group whose members read and change every collection, whatever the grants say. */
export const ADMIN_GROUP = 'admin';

const collectionList = z
  .array(z.string().regex(COLLECTION_NAME, 'a collection name (lower-case letters, digits, - and _)'))
  .default([]);

/**
 * What each sign-in group (a Cognito group) grants: `read` lists the collections its members may
 * list, search, ask over and open; `write` those they may also upload into, delete from and reindex
 * (write implies read). A group not named grants nothing.
 */
export const accessGrantsSchema = z.record(
  z.string().min(1, 'a group name'),
  z.strictObject({ read: collectionList, write: collectionList }),
);

export type AccessGrants = z.infer<typeof accessGrantsSchema>;

/** What one signed-in user may read and change. */
export interface GrantedAccess {
  read: AccessScope;
  write: AccessScope;
}

/**
 * The access a user's groups grant: everything for a member of `admin`; otherwise the union of the
 * grants of the groups they are in, writable collections readable too. Deny by default: a user in no
 * granting group reads and changes nothing.
 *
 * @example accessOfGroups(['hr'], { hr: { read: ['hr', 'handbook'], write: ['hr'] } })
 * // read: hr, handbook; write: hr
 */
export function accessOfGroups(groups: readonly string[], grants: AccessGrants): GrantedAccess {
  if (groups.includes(ADMIN_GROUP)) return { read: ALL_COLLECTIONS, write: ALL_COLLECTIONS };
  const granted = groups.flatMap((group) => (Object.hasOwn(grants, group) ? [grants[group]] : []));
  const write = granted.flatMap((grant) => grant?.write ?? []);
  const read = granted.flatMap((grant) => grant?.read ?? []);
  return { read: readableCollections([...read, ...write]), write: readableCollections(write) };
}

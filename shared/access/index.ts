export { assertCollectionName, COLLECTION_NAME } from './collection-name.ts';
export { type CollectionSettings, collectionOfKey, uploadPrefix } from './collection-of-key.ts';
export {
  type AccessGrants,
  ADMIN_GROUP,
  accessGrantsSchema,
  accessOfGroups,
  type GrantedAccess,
} from './grants.ts';
export {
  type AccessScope,
  ALL_COLLECTIONS,
  allows,
  collectionCondition,
  documentInScope,
  narrowScope,
  readableCollections,
} from './scope.ts';

export { type CollectionSettings, collectionOfKey, uploadPrefix } from './collection-of-key.ts';
export {
  type AccessScope,
  ALL_COLLECTIONS,
  assertCollectionName,
  COLLECTION_NAME,
  canRead,
  collectionCondition,
  documentInScope,
  narrowScope,
  readableCollections,
} from './scope.ts';

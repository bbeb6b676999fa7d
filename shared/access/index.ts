export { type CollectionSettings, collectionOfKey, uploadPrefix } from './collection-of-key.ts';
export {
  type AccessScope,
  ALL_COLLECTIONS,
  allows,
  assertCollectionName,
  COLLECTION_NAME,
  collectionCondition,
  documentInScope,
  narrowScope,
  readableCollections,
} from './scope.ts';

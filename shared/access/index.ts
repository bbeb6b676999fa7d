export { assertCollectionName, COLLECTION_NAME } from './collection-name.ts';
export { type CollectionSettings, collectionOfKey, uploadPrefix } from './collection-of-key.ts';
export {
  type AccessScope,
  ALL_COLLECTIONS,
  allows,
  collectionCondition,
  documentInScope,
  narrowScope,
  readableCollections,
} from './scope.ts';

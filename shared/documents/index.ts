export { deleteDocument, derivedPrefix } from './delete.ts';
export {
  type DocumentSummary,
  getDocument,
  type ListOptions,
  listDocuments,
  listVersions,
  type VersionSummary,
} from './queries.ts';

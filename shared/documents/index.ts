export { type ActivityOf, type DocumentActivity, withActivity } from './activity.ts';
export {
  ATTACHMENT_PREFIX,
  type AttachedDocument,
  attachmentKey,
  attachmentPrefix,
  listAttachments,
  messageIdOfKey,
  messageOf,
  storeAttachments,
} from './attachments.ts';
export { deleteDocument, derivedPrefix, unlinkTopics } from './delete.ts';
export {
  assertReadable,
  assertWritable,
  countDocuments,
  type DocumentCounts,
  type DocumentSummary,
  type DocumentTopic,
  getDocument,
  type ListOptions,
  listDocuments,
  listDocumentTopics,
  listVersions,
  type VersionSummary,
} from './queries.ts';
export {
  type RemovalOutcome,
  type RemovedObject,
  removeObject,
  removeVanishedObjects,
  watchVanishedObjects,
} from './remove-object.ts';
export { renameDocument } from './rename.ts';
export { resolveDocument } from './resolve.ts';
export { getVersion, mergeVersionStats, startStep, type VersionRow } from './versions.ts';
export {
  type DocumentRow,
  findOrCreateDocument,
  queueDocument,
  queueReindex,
  settleDocumentStatus,
} from './write.ts';

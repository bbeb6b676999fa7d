export { type ChangeItem, type Comparison, compareVersions, extractiveComparisonAnswer } from './compare.ts';
export { compareVersionsFlow } from './flow.ts';
export {
  comparedDocument,
  type VersionedDocument,
  type VersionQuestion,
  versionQuestion,
  versionsTarget,
} from './question.ts';

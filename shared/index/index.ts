export { hasCjk, isStopword, segment } from '#shared/text/segment.ts';
export { embedVersion } from './embed-version.ts';
export { flattenTree, indexTextOf, PATH_SEPARATOR } from './flatten.ts';
export { type IndexResult, type IndexStats, indexParsedDocument } from './index-document.ts';
export type { NodeRow } from './node-row.ts';
export {
  buildOrTsquery,
  buildTsvector,
  type IndexedTokens,
  type Weight,
  type WeightedText,
} from './tsvector.ts';
export { ensureVectorIndex, vectorExpression, vectorIndexName, vectorPredicate } from './vector-index.ts';
export { writeNodes } from './write-nodes.ts';

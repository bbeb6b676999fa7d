export { type Bm25Corpus, type Bm25Params, type Bm25Term, bm25Idf, bm25Score } from './bm25.ts';
export { loadBreadcrumbs } from './breadcrumb.ts';
export { fulltextSearch, rankFulltext } from './fulltext.ts';
export { type FusionOptions, fuseScores } from './fusion.ts';
export { hybridSearch, rankHybrid } from './hybrid.ts';
export { hydrateHits } from './hydrate.ts';
export { type KeywordQuery, keywordSearch, rankKeyword } from './keyword.ts';
export {
  invalidateMemoryIndex,
  keepMemoryIndexSnapshot,
  saveMemoryIndexSnapshot,
  warmSearchIndex,
  warmSearchIndexInBackground,
} from './memory-sync.ts';
export { getChildren, getContextWindow, getNode, type NodeView } from './nodes.ts';
export { retrievePassages } from './passages.ts';
export { type RelatedDocument, relatedDocuments } from './related.ts';
export { rerankHits } from './rerank.ts';
export { search, splitKeywords } from './search.ts';
export { cosineSimilarities, embedQuery, rankSemantic, semanticSearch } from './semantic.ts';
export {
  type DocumentStructure,
  getDocumentStructure,
  type NodeCounts,
  type StructureSection,
} from './structure.ts';
export type * from './types.ts';

import type { AccessScope } from '#shared/access/scope.ts';
import type { Config } from '#shared/config/index.ts';
import type { Db } from '#shared/db/client.ts';
import type { NodeType } from '#shared/db/schema.ts';
import type { Reranker } from '#shared/llm/rerank/types.ts';
import type { Embedder } from '#shared/llm/types.ts';
import type { LeafPosition } from './tie-break.ts';

export type SearchKind = 'keyword' | 'fulltext' | 'semantic' | 'hybrid';

export type KeywordMode = 'exact' | 'regex' | 'fuzzy';

/**
 * Narrows the searchable scope. Without `version` the scope is each live document's current
 * version; with it, that version of every (filtered) live document.
 */
export interface SearchFilters {
  documentIds?: string[];
  version?: number;
  /** Section categories: a leaf matches when it or its parent section carries one of them. */
  categories?: string[];
  /** Documents linked to any of these topics. */
  topicIds?: string[];
}

/** One ancestor section of a hit, outermost first. */
export interface BreadcrumbEntry {
  title: string;
  summary: string | null;
  depth: number;
}

/** A leaf node (paragraph, table or image) found by a search, with where it sits. */
export interface SearchHit {
  nodeId: string;
  documentId: string;
  /** The document's file name. */
  documentName: string;
  documentKey: string;
  version: number;
  nodeType: NodeType;
  content: string;
  /** Ancestor section titles, outermost first. */
  sectionPath: string[];
  /** "doc name > A > B". */
  path: string;
  breadcrumb: BreadcrumbEntry[];
  /** The ranking score of the search kind: BM25, cosine similarity, the fused score, or keywords matched. */
  score: number;
  ordinal: number;
  metadata: Record<string, unknown>;
  /** Terms, keywords or matched text to mark in the content. */
  highlights?: string[];
  /**
   * Cosine similarity between the query and the hit (semantic and hybrid results), comparable
   * across queries, unlike `score`: what quality checks and `relevance` in answers use.
   */
  relevance?: number;
  /** The reranker's score, when the hit was reranked (`rerank`); higher is more relevant. */
  rerankScore?: number;
}

export interface SearchDeps {
  db: Db;
  /** What the asker may read: every query applies it in SQL (shared/access). */
  access: AccessScope;
  embedder: Embedder;
  search: Config['search'];
  /** Configured by `search.rerank`; absent, `rerank` requests are refused and flows keep the fused order. */
  reranker?: Reranker;
}

export interface SearchRequest {
  query: string;
  kind: SearchKind;
  limit?: number;
  filters?: SearchFilters;
  keywordMode?: KeywordMode;
  caseSensitive?: boolean;
  /** Rerank the top `search.rerank.topN` with the configured reranker (fulltext, semantic, hybrid). */
  rerank?: boolean;
  /** Aborted when the asker goes away (the HTTP client disconnects): no further query is started. */
  signal?: AbortSignal;
}

/**
 * A ranked node before its details are loaded: what each search kind produces and fusion consumes.
 * Its position (document key, ordinal) orders it among equal scores (`comparePositions`).
 */
export interface RankedNode extends LeafPosition {
  nodeId: string;
  score: number;
  highlights?: string[];
  relevance?: number;
}

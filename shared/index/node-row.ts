import type { NodeType } from '#shared/db/schema.ts';

/** One `nodes` row as the indexer writes it (the insert shape, with the tsvector as a literal). */
export interface NodeRow {
  id: string;
  documentId: string;
  version: number;
  parentId: string | null;
  nodeType: NodeType;
  depth: number;
  /** Position among its siblings. */
  position: number;
  /** Position in the document's reading order; the document node is 0. */
  ordinal: number;
  title: string | null;
  content: string | null;
  summary: string | null;
  category: string | null;
  /** The text that is embedded (leaves: section path and content). */
  indexText: string;
  /** A `tsvector` literal from `buildTsvector`, cast with `::tsvector` when written. */
  searchVector: string;
  tokenCount: number;
  /** CJK character grams in the tsvector: the gram field's BM25 length. */
  gramCount: number;
  metadata: Record<string, unknown>;
}

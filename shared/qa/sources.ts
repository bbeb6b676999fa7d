import { PATH_SEPARATOR } from '#shared/index/flatten.ts';
import type { SearchHit } from '#shared/search/types.ts';
import type { QaSource } from './response.ts';

const SNIPPET_CHARS = 300;

/** A hit as a cited source; `relevance` is its cosine similarity to the question, clamped to 0..1. */
export function toSource(hit: SearchHit, citation: number): QaSource {
  const chars = [...hit.content];
  return {
    citation,
    document_id: hit.documentId,
    document_name: hit.documentName,
    section: hit.sectionPath.join(PATH_SEPARATOR),
    snippet: chars.length > SNIPPET_CHARS ? `${chars.slice(0, SNIPPET_CHARS).join('')}…` : hit.content,
    relevance: Math.max(0, Math.min(1, hit.relevance ?? 0)),
    node_id: hit.nodeId,
    version: hit.version,
  };
}

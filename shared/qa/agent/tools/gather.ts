import type { SearchFilters, SearchHit } from '#shared/search/types.ts';
import { newBackgrounds } from '../background.ts';
import type { ToolContext, ToolKind, ToolOutcome } from '../types.ts';
import { passageBlocks } from './format.ts';

/**
 * Adds passages to the evidence and describes them for the model (with the background of documents
 * it has not seen yet) and the trace.
 */
export async function gatherHits(
  ctx: ToolContext,
  hits: SearchHit[],
  kind: ToolKind,
  what: string,
): Promise<ToolOutcome> {
  const { evidence } = ctx.state;
  const { numbers, added } = evidence.add(hits);
  // Full-text and keyword hits carry no cosine relevance; only the others count.
  const relevances = hits.flatMap((hit) => (hit.relevance === undefined ? [] : [hit.relevance]));
  const bestRelevance = relevances.length > 0 ? Math.max(...relevances) : undefined;
  if (hits.length === 0) {
    return { kind, observation: `No ${what} found.`, summary: `No ${what} found.`, found: 0, added: 0 };
  }
  const backgrounds = await newBackgrounds(ctx.deps.db, hits, ctx.state.backgrounds);
  const documents = [...new Set(hits.map((hit) => hit.documentName))];
  const summary = `${hits.length} ${what} (${added} new) from ${documents.slice(0, 3).join(', ')}${documents.length > 3 ? ', …' : ''}${bestRelevance === undefined ? '' : `; best relevance ${bestRelevance.toFixed(2)}`}.`;
  const observation = [
    `${hits.length} ${what}; cite them by their index as [n].`,
    passageBlocks(hits, numbers),
    ...(backgrounds
      ? ['Background of newly seen documents (for understanding, not for citing):', backgrounds]
      : []),
  ].join('\n');
  return { kind, observation, summary, found: hits.length, added, bestRelevance };
}

/**
 * The request's scope narrowed to one document (when given, and inside the scope) and to section
 * categories: tools may narrow the scope, never widen it.
 */
export function narrowed(filters: SearchFilters, documentId?: string, categories?: string[]): SearchFilters {
  const out: SearchFilters = { ...filters };
  if (documentId) {
    const allowed = !filters.documentIds || filters.documentIds.includes(documentId);
    out.documentIds = allowed ? [documentId] : [];
  }
  if (categories && categories.length > 0) out.categories = categories;
  return out;
}

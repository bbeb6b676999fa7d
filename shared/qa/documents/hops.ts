import { retrievePassages } from '#shared/search/passages.ts';
import type { SearchFilters, SearchHit } from '#shared/search/types.ts';
import { pickAnswerSentences } from '#shared/text/answer.ts';
import type { QaDeps } from '../deps.ts';
import { bridgeEntities, hopQuery, isMultiHop, MAX_HOPS } from '../hops.ts';

/** Passages searched per hop, and read for the names they state. */
const HOP_DEPTH = 10;

/** What the hops of a multi-hop question found: the names searched for and the passages found. */
export interface DocumentHops {
  entities: string[];
  hits: SearchHit[];
}

/**
 * The documents mode's hops without a model (docs/spec.md#multi-hop): for a multi-hop question, the names
 * the best sentences of the question's passages state (`bridgeEntities`: the lead of Atlas ->
 * "Dana Whitfield") are searched with the question's unanswered terms, and the names those passages
 * state in turn ("Borealis"), up to `MAX_HOPS` rounds, each retrieved like every flow
 * (`retrievePassages`: hybrid, reranked when configured); the documents found are read with the rest.
 */
export async function findHops(
  deps: QaDeps,
  question: string,
  hits: SearchHit[],
  filters: SearchFilters,
): Promise<DocumentHops> {
  const found: DocumentHops = { entities: [], hits: [] };
  if (!isMultiHop(question)) return found;
  let quoted = bestSentences(question, hits);
  for (let round = 0; round < MAX_HOPS; round++) {
    const entities = bridgeEntities([question, ...found.entities].join(' '), quoted);
    if (entities.length === 0) break;
    found.entities.push(...entities);
    const next: string[] = [];
    for (const entity of entities) {
      const query = hopQuery(entity, question, quoted);
      const hopHits = await retrievePassages(deps, query, filters, HOP_DEPTH);
      found.hits.push(...hopHits);
      next.push(...bestSentences(entity, hopHits));
    }
    quoted = [...quoted, ...next];
  }
  return found;
}

function bestSentences(query: string, hits: SearchHit[]): string[] {
  return pickAnswerSentences(
    query,
    hits.slice(0, HOP_DEPTH).map((hit, i) => ({ content: hit.content, citation: i })),
  ).map((s) => s.text);
}

/**
 * The documents read: the question's best one first, then those the hops lead to, then the
 * question's others, `max` in all.
 *
 * @example documentsToRead(['a', 'b', 'c'], ['d'], 3) // ['a', 'd', 'b']
 */
export function documentsToRead(asked: string[], hops: string[], max: number): string[] {
  const [first, ...rest] = asked;
  return [...new Set([...(first ? [first] : []), ...hops, ...rest])].slice(0, max);
}

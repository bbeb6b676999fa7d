import { retrievePassages } from '#shared/search/passages.ts';
import type { SearchFilters, SearchHit } from '#shared/search/types.ts';
import type { QaDeps } from './deps.ts';
import type { QaEvent } from './events.ts';
import type { AskRequest } from './request.ts';
import type { TraceRecorder } from './trace.ts';

/** The search filters a request sets: its documents, topics and version. */
export function requestFilters(request: AskRequest): SearchFilters {
  return {
    documentIds: request.document_ids,
    topicIds: request.topic_filter,
    version: request.version ?? undefined,
  };
}

/**
 * Standard retrieval (docs/spec.md#standard-retrieval): hybrid search for the question over the
 * request's scope, `search.topK` passages with their breadcrumbs; streams the progress and the
 * trace action. An aborted `signal` (the asker went away) stops the search before its next query.
 */
export async function* retrieve(
  deps: QaDeps,
  request: AskRequest,
  trace: TraceRecorder,
  signal?: AbortSignal,
): AsyncGenerator<QaEvent, SearchHit[]> {
  yield { type: 'progress', data: { stage: 'retrieve', message: 'Searching your documents' } };
  const hits = await retrievePassages(
    deps,
    request.question,
    requestFilters(request),
    deps.search.topK,
    signal,
  );
  yield trace.action('hybrid_search', `Full-text and semantic search found ${hits.length} passage(s).`);
  return hits;
}

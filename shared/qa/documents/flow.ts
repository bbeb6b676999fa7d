import { settleEach } from '#shared/async/limiter.ts';
import { DropQAError, reasonOf } from '#shared/errors.ts';
import type { ChatModel, TokenUsage } from '#shared/llm/types.ts';
import { retrievePassages } from '#shared/search/passages.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { modelAnswerFailed, relayModelAnswer } from '../answer-fallback.ts';
import { verifyQuotes } from '../citations.ts';
import { textDeltas } from '../deltas.ts';
import type { QaDeps } from '../deps.ts';
import { quotedName } from '../document-name.ts';
import type { QaEvent } from '../events.ts';
import { saveAnswer, topicsOf } from '../history.ts';
import type { AskRequest } from '../request.ts';
import type { Confidence, QaResponse } from '../response.ts';
import { requestFilters } from '../retrieve.ts';
import { TraceRecorder } from '../trace.ts';
import { Deadline } from '../two-stage/deadline.ts';
import type { CachedBlob } from './assets.ts';
import { documentsToRead, findHops } from './hops.ts';
import type { LruCache } from './lru.ts';
import { extractMarkers } from './markers.ts';
import { type DocumentReference, resolveReferences } from './references.ts';
import { referencesAsSources } from './sources.ts';
import { readDocument, type Stage1Result } from './stage1.ts';
import { offlineSynthesis, streamSynthesis } from './stage2.ts';

/** Settings of the documents mode; defaults in parentheses. */
export interface DocumentsOptions {
  /** Documents read whole in Stage 1 (5; at most 10, docs/spec.md#documents-mode). */
  maxDocuments?: number;
  /** Stage-1 documents read at once (4). */
  concurrency?: number;
  /**
   * A document whose Stage 1 takes longer than this is skipped (60,000 ms; the aim is under 5 s,
   * docs/spec.md#timing-targets).
   */
  documentTimeoutMs?: number;
}

/** The documents mode needs the blob store (Markdown renditions and images) besides search. */
export type DocumentsDeps = QaDeps & {
  store?: BlobStore;
  blobCache?: LruCache<CachedBlob>;
  /** Settings of the mode (`qa.documents` in the configuration); the options argument wins. */
  documents?: DocumentsOptions;
};

/** The most documents Stage 1 reads for one question (docs/spec.md#documents-mode). */
export const MAX_DOCUMENTS = 10;
/** Passages searched to find the documents: enough to reach ten distinct ones in most corpora. */
const DOCUMENT_SEARCH_DEPTH = 50;

/**
 * The documents mode (docs/spec.md#documents-mode): hybrid search finds the documents (at most
 * `maxDocuments`), Stage 1 reads each one whole with the question, concurrently, streaming
 * `progress` {current, total, doc_name} as each finishes (a document that fails is skipped with a
 * `progress` event of stage `stage1_failed`, never failing the answer); Stage 2 synthesizes and
 * streams the answer (when the model fails before writing, the Stage-1 findings stand in, with low
 * confidence); its markers are resolved to references {ref_id, doc_id, doc_name, chunk_type,
 * content | image_url}; usage per stage; `done` with the response (also saved in the history).
 */
export async function* documentsFlow(
  deps: DocumentsDeps,
  request: AskRequest,
  signal?: AbortSignal,
  explicit: DocumentsOptions = {},
): AsyncGenerator<QaEvent> {
  const options = { ...deps.documents, ...explicit };
  const store = deps.store;
  if (!store) throw new DropQAError('mode_unavailable', 'The documents mode needs the blob store.');
  const chat = deps.providers.chat;
  const trace = new TraceRecorder();
  const maxDocuments = Math.min(MAX_DOCUMENTS, Math.max(1, options.maxDocuments ?? 5));

  yield { type: 'progress', data: { stage: 'retrieve', message: 'Finding the documents to read' } };
  const hits = await retrievePassages(deps, request.question, requestFilters(request), DOCUMENT_SEARCH_DEPTH);
  const hops = chat
    ? { entities: [], hits: [] }
    : await findHops(deps, request.question, hits, requestFilters(request));
  const documentIds = documentsToRead(
    [...new Set(hits.map((hit) => hit.documentId))],
    [...new Set(hops.hits.map((hit) => hit.documentId))],
    maxDocuments,
  );
  const versionOf = new Map([...hops.hits, ...hits].map((hit) => [hit.documentId, hit.version]));
  yield trace.action('hybrid_search', `Found ${documentIds.length} document(s) to read whole.`);
  if (hops.entities.length > 0)
    yield trace.thought(`A multi-hop question: the passages lead on to ${hops.entities.join(', ')}.`);
  // Offline, each document is read for the question and the names its hops lead to.
  const readFor = [request.question, ...hops.entities].join(' ');
  if (signal?.aborted) return;

  const total = documentIds.length;
  const read: Stage1Result[] = [];
  const stage1Usage: TokenUsage & { model: string } = { inputTokens: 0, outputTokens: 0, model: '' };
  let current = 0;
  trace.iteration(2);
  for await (const outcome of settleEach(documentIds, Math.max(1, options.concurrency ?? 4), (id) =>
    new Deadline(options.documentTimeoutMs ?? 60_000).within(
      readDocument(
        { db: deps.db, store, cache: deps.blobCache },
        chat,
        chat ? request.question : readFor,
        id,
        {
          version: versionOf.get(id),
        },
      ),
    ),
  )) {
    if (signal?.aborted) return;
    current += 1;
    if (outcome.ok) {
      read.push(outcome.value);
      const usage = outcome.value.usage;
      if (usage) {
        stage1Usage.inputTokens += usage.inputTokens;
        stage1Usage.outputTokens += usage.outputTokens;
        stage1Usage.model = usage.model;
      }
      yield { type: 'progress', data: { stage: 'stage1', current, total, doc_name: outcome.value.name } };
    } else {
      const name = hits.find((hit) => hit.documentId === outcome.item)?.documentName ?? outcome.item;
      const reason = reasonOf(outcome.error);
      yield {
        type: 'progress',
        data: { stage: 'stage1_failed', current, total, doc_name: name, message: `Skipped: ${reason}` },
      };
      yield trace.observation(`${name} could not be read and was skipped: ${reason}`);
    }
  }
  // Stage 2 sees the documents in retrieval order, whatever order Stage 1 finished in.
  read.sort((a, b) => documentIds.indexOf(a.documentId) - documentIds.indexOf(b.documentId));
  if (chat) yield { type: 'usage', data: { stage: 'stage1', ...stage1Usage } };
  yield trace.observation(`Read ${read.length} of ${total} document(s) whole.`);

  trace.iteration(3);
  yield { type: 'progress', data: { stage: 'stage2', message: 'Writing the answer' } };
  let answer = '';
  let degraded = false;
  if (chat && read.length > 0) {
    const streamed = yield* relayModelAnswer(synthesisEvents(chat, request.question, read), signal);
    if (streamed.status === 'aborted') return;
    if (streamed.status === 'done') answer = streamed.text;
    else {
      yield* modelAnswerFailed(request.question, streamed.error, trace);
      degraded = true;
      answer = stage1Findings(request.question, read);
    }
  } else answer = offlineSynthesis(request.question, read, hops.entities);
  if (!chat || read.length === 0 || degraded) yield* textDeltas(answer);

  const resolved = resolveReferences(extractMarkers(answer), read);
  if (resolved.unknown.length > 0)
    yield trace.observation(
      `Markers naming no paragraph or image were dropped: ${resolved.unknown.join(', ')}`,
    );
  const { references, unverified } = checkQuotes(answer, resolved.references);
  const sources = await referencesAsSources(deps.db, deps.access, references, read);
  yield { type: 'references', data: { sources, references } };

  const confidence: Confidence = references.length === 0 || degraded ? 'low' : chat ? 'high' : 'medium';
  const response: QaResponse = {
    answer,
    confidence,
    sources,
    references,
    identified_topics: await topicsOf(
      deps.db,
      deps.access,
      read.map((doc) => doc.documentId),
    ),
    mode: 'documents',
    requested_mode: request.mode,
    provider: deps.providers.label,
    reasoning_steps: 3,
  };
  if (unverified.length > 0) response.unverified_quotes = unverified;
  if (request.version != null) response.version = request.version;
  if (request.show_reasoning) response.reasoning_trace = trace.steps;
  response.history_id = await saveAnswer(deps.db, request, response);
  yield { type: 'done', data: { response } };
}

/** Stage 2's stream as events: text deltas and the stage's usage. */
async function* synthesisEvents(
  chat: ChatModel,
  question: string,
  read: Stage1Result[],
): AsyncGenerator<QaEvent> {
  for await (const event of streamSynthesis(chat, question, read)) {
    if (event.type === 'delta') {
      if (event.text) yield { type: 'delta', data: { text: event.text } };
    } else yield { type: 'usage', data: { stage: 'stage2', ...event.usage, model: event.model } };
  }
}

/** When Stage 2 fails: each document's Stage-1 reply under its name, their markers still resolvable. */
function stage1Findings(question: string, read: Stage1Result[]): string {
  const zh = hasCjk(question);
  const head = zh
    ? '综合回答未能生成，以下是逐篇文档的阅读结果：'
    : 'The combined answer could not be written; here is what each document says:';
  return [head, ...read.map((doc) => `\n### ${quotedName(doc.name, zh)}\n\n${doc.reply.trim()}`)].join('\n');
}

/**
 * Checks the answer's quoted text against the cited paragraphs: a text reference whose paragraph an
 * answer quote claims is marked `verified` (false when a quote is not in it), quotes found nowhere
 * are returned as unverified.
 */
function checkQuotes(
  answer: string,
  references: DocumentReference[],
): { references: DocumentReference[]; unverified: string[] } {
  const text = references.map((r, i) => [i + 1, r.content ?? ''] as const);
  // The answer cites with DOC markers, not [n]: each quote is checked against every paragraph.
  const { byCitation, unattributed } = verifyQuotes(answer.replace(/\[DOC-[^\]]*\]/g, ''), new Map(text));
  const checked = references.map((r, i) => {
    const quotes = byCitation.get(i + 1);
    return quotes ? { ...r, verified: quotes.every((q) => q.verified) } : r;
  });
  return { references: checked, unverified: unattributed };
}

import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { reasonOf } from '#shared/errors.ts';
import type { Providers } from '#shared/llm/types.ts';
import { isStructurePhrase } from '#shared/parse/structure-words.ts';
import { pgArray } from '#shared/search/scope.ts';
import { pickTopics, rankKeyPhrases } from '#shared/text/topics.ts';
import { corpusStatistics, versionTerms } from './corpus-frequency.ts';
import { type DocumentText, loadDocumentText } from './document-text.ts';
import { extractTopicsWithModel, type TopicCandidate } from './extract.ts';
import { linkDocumentTopics, type TopicLink, type TopicLinking } from './link.ts';
import { refreshTopicVectors } from './topic-vectors.ts';

export interface TopicSettings {
  minPerDocument: number;
  maxPerDocument: number;
  mergeThreshold: number;
  /** Topic names embedded per call when re-embedding for a new model. */
  batchSize: number;
}

export interface DerivedTopics {
  links: TopicLink[];
  modelCalls: number;
  /** Why the model's topics were replaced by keywords, when they were. */
  fallback?: string;
  /** True when a newer version is already current: its topics stand, nothing was changed. */
  superseded?: boolean;
}

/** Key phrases kept per document for topics other documents bring later: this many times the maximum. */
const PHRASES_KEPT = 3;

/** Topics drawn from one version, before they are merged with the existing ones. */
export interface TopicDraft {
  candidates: TopicCandidate[];
  modelCalls: number;
  /** Why the model's topics were replaced by keywords, when they were. */
  fallback?: string;
  /**
   * Offline: the normalised keys of the document's best key phrases beyond its topics, so a topic a
   * later document brings links this one too when it is among them.
   */
  phrases?: string[];
  /** Offline: the size of the corpus the phrases were scored against. */
  corpusSize?: number;
}

/**
 * One version's topic candidates: a chat model names `minPerDocument`..`maxPerDocument` topics from
 * the version's stored title, summary and section outline; offline (or when the model fails) they
 * are the document's TF-IDF keywords against the corpus.
 */
export async function extractTopicCandidates(
  db: Db,
  providers: Providers,
  ref: { documentId: string; version: number },
  settings: Pick<TopicSettings, 'minPerDocument' | 'maxPerDocument'>,
): Promise<TopicDraft> {
  const max = Math.max(settings.maxPerDocument, 1);
  const min = Math.min(settings.minPerDocument, max);
  const text = await loadDocumentText(db, ref);
  if (providers.chat) {
    try {
      const candidates = await extractTopicsWithModel(providers.chat, text, { min, max });
      return { candidates: candidates.filter((c) => !isStructurePhrase(c.name)), modelCalls: 1 };
    } catch (error) {
      return {
        ...(await keywordDraft(db, ref.documentId, text, max)),
        modelCalls: 1,
        fallback: `the model's topics failed (${reasonOf(error)}); keywords used instead`,
      };
    }
  }
  return { ...(await keywordDraft(db, ref.documentId, text, max)), modelCalls: 0 };
}

/** The document's current version (0 when it has none). */
async function currentVersionOf(db: Db, documentId: string): Promise<number> {
  const [row] = await queryRows<{ current_version: number | null }>(
    db,
    sql`SELECT current_version FROM documents WHERE id = ${documentId}::uuid`,
  );
  return Number(row?.current_version ?? 0);
}

/**
 * Derives one version's topics and links its document to them, replacing the document's old links
 * (docs/spec.md#topics): `extractTopicCandidates`, then the candidates merge with existing topics
 * by name or embedding similarity. `currentVersion` is the document's current version when the
 * caller has just read it (the Topics step, as it starts), else it is read here. `stats` are merged
 * into the version's stats with the link counts (`topics`, `topicsCreated`, `topicModelCalls`), in
 * the statement that keeps its key phrases.
 *
 * @example const { links } = await deriveDocumentTopics(db, providers, { documentId, version }, settings);
 */
export async function deriveDocumentTopics(
  db: Db,
  providers: Providers,
  ref: { documentId: string; version: number },
  settings: TopicSettings,
  known: { currentVersion?: number | null } = {},
): Promise<DerivedTopics> {
  const currentVersion =
    known.currentVersion === undefined
      ? await currentVersionOf(db, ref.documentId)
      : Number(known.currentVersion ?? 0);
  if (currentVersion > ref.version) return { links: [], modelCalls: 0, superseded: true };
  const draft = await extractTopicCandidates(db, providers, ref, settings);
  await refreshTopicVectors(db, providers.embedder, settings.batchSize);
  const stale = draft.corpusSize ? await staleDrafts(db, ref.documentId, draft.corpusSize, settings) : [];
  const [links = []] = await linkDocumentTopics(
    db,
    providers.embedder,
    [
      linking(ref, draft, {
        recordTerms: true,
        stats: (links) => ({
          topics: links.length,
          topicsCreated: links.filter((link) => link.created).length,
          topicModelCalls: draft.modelCalls,
        }),
      }),
      ...stale.map((earlier) => linking(earlier.ref, earlier.draft)),
    ],
    settings.mergeThreshold,
    Math.max(settings.maxPerDocument, 1),
  );
  if (draft.corpusSize && stale.length < RESCORED_PER_DOCUMENT)
    cleanCorpus.set(db, { size: draft.corpusSize, at: Date.now() });
  return { links, modelCalls: draft.modelCalls, ...(draft.fallback ? { fallback: draft.fallback } : {}) };
}

/** A document to link to the draft's topics, keeping the draft's key phrases on its version with the links. */
function linking(
  ref: { documentId: string; version: number },
  draft: Pick<TopicDraft, 'candidates' | 'phrases' | 'corpusSize'>,
  options: KeepOptions = {},
): TopicLinking {
  return {
    documentId: ref.documentId,
    candidates: draft.candidates,
    record: (links) => keepTopicPhrases(ref, draft, links, options),
  };
}

/** Earlier documents re-scored per document: enough to keep up while the corpus doubles. */
const RESCORED_PER_DOCUMENT = 2;

/**
 * Per database: the corpus size no document was stale for at the last look (documents processed
 * since are scored against about that size), so the look is not repeated per document once the
 * corpus has outgrown the sample. Forgotten after `CLEAN_TTL_MS` (documents deleted and added
 * since may have been scored against a smaller corpus).
 */
const cleanCorpus = new WeakMap<Db, { size: number; at: number }>();
const CLEAN_TTL_MS = 60_000;

function isClean(db: Db, corpusSize: number): boolean {
  const clean = cleanCorpus.get(db);
  return !!clean && clean.size >= corpusSize && Date.now() - clean.at < CLEAN_TTL_MS;
}

/**
 * Offline topics follow the corpus: a document whose key phrases were scored against a corpus less
 * than half today's (the first documents of a folder were scored against almost nothing) is scored
 * again (against the corpus sample just read for the document being processed) and relinked in the
 * same transaction, at most `RESCORED_PER_DOCUMENT` of them per document processed, the oldest
 * scores first. Bounded: the corpus counted is a sample of at most 201 documents, so the re-scoring
 * ends once the corpus outgrows it.
 */
async function staleDrafts(
  db: Db,
  documentId: string,
  corpusSize: number,
  settings: TopicSettings,
): Promise<{ ref: { documentId: string; version: number }; draft: KeywordDraft }[]> {
  if (isClean(db, corpusSize)) return [];
  const stale = await queryRows<{ document_id: string; version: number }>(
    db,
    sql`SELECT v.document_id, v.version FROM documents d
        JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
        WHERE d.deleted_at IS NULL AND v.status = 'ready' AND d.id <> ${documentId}::uuid
          AND (v.stats->>'topicCorpus')::int * 2 < ${corpusSize}::int
        ORDER BY (v.stats->>'topicCorpus')::int, d.id LIMIT ${RESCORED_PER_DOCUMENT}::int`,
  );
  const drafts = [];
  for (const row of stale) {
    const ref = { documentId: row.document_id, version: Number(row.version) };
    const text = await loadDocumentText(db, ref);
    const max = Math.max(settings.maxPerDocument, 1);
    drafts.push({ ref, draft: await keywordDraft(db, ref.documentId, text, max, { reuse: true }) });
  }
  return drafts;
}

interface KeepOptions {
  /** Also record the version's distinct search tokens (`versionTerms`). */
  recordTerms?: boolean;
  /** Counters merged into the version's stats in the same update. */
  stats?: (links: TopicLink[]) => Record<string, number>;
}

/**
 * The update that records the version's kept key phrases (none with a model's topics), for topics
 * later documents bring, and the corpus size they were scored against (`stats.topicCorpus`), for
 * re-scoring; with `recordTerms`, its distinct search tokens (`versionTerms`), which the documents
 * after it are scored against, and the `stats` counters. Run with the links (`linkDocumentTopics`).
 */
function keepTopicPhrases(
  ref: { documentId: string; version: number },
  draft: Pick<TopicDraft, 'phrases' | 'corpusSize'>,
  links: TopicLink[],
  options: KeepOptions,
): SQL {
  const phrases = draft.phrases ?? [];
  const stats = {
    ...(draft.corpusSize ? { topicCorpus: draft.corpusSize } : {}),
    ...options.stats?.(links),
  };
  const terms = options.recordTerms ? sql`, terms = ${versionTerms(ref)}` : sql``;
  const touched = options.stats ? sql`, updated_at = now()` : sql``;
  return sql`UPDATE document_versions SET topic_phrases = ${phrases.length ? pgArray(phrases) : null}::text[],
      stats = stats || ${JSON.stringify(stats)}::jsonb${terms}${touched}
    WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`;
}

type KeywordDraft = Pick<TopicDraft, 'candidates' | 'phrases' | 'corpusSize'>;

async function keywordDraft(
  db: Db,
  documentId: string,
  text: DocumentText,
  max: number,
  options: { reuse?: boolean } = {},
): Promise<KeywordDraft> {
  const corpus = await corpusStatistics(db, documentId, options);
  // A phrase of structure words ("Column", "table cell") names the format, never the subject.
  const ranked = rankKeyPhrases(text.weighted, corpus).filter((r) => !isStructurePhrase(r.phrase.key));
  return {
    candidates: pickTopics(ranked, max, text.weighted),
    phrases: ranked.slice(0, max * PHRASES_KEPT).map((r) => r.phrase.key),
    corpusSize: corpus.corpusSize,
  };
}

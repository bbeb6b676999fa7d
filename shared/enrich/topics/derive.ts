import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { jsonColumn } from '#shared/db/json-column.ts';
import { reasonOf } from '#shared/errors.ts';
import { keywordFrequencies, keywordTopics } from '#shared/llm/offline/topics.ts';
import type { Providers } from '#shared/llm/types.ts';
import { corpusFrequencies, recordVersionTerms } from './corpus-frequency.ts';
import { type DocumentText, loadDocumentText } from './document-text.ts';
import { extractTopicsWithModel, type TopicCandidate } from './extract.ts';
import { linkDocumentTopics, type TopicLink } from './link.ts';
import type { TopicSource } from './outline.ts';
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

/** Keyword candidates looked up in the corpus: the most frequent ones in the document. */
const KEYWORD_CANDIDATES = 40;

/** Topics drawn from one version, before they are merged with the existing ones. */
export interface TopicDraft {
  candidates: TopicCandidate[];
  modelCalls: number;
  /** Why the model's topics were replaced by keywords, when they were. */
  fallback?: string;
}

/**
 * One version's topic candidates: a chat model names `minPerDocument`..`maxPerDocument` topics from
 * `source` (the Summarize step passes the section outline it has in hand) or else the version's
 * stored title, summary and outline; offline (or when the model fails) they are the document's
 * TF-IDF keywords against the corpus.
 */
export async function extractTopicCandidates(
  db: Db,
  providers: Providers,
  ref: { documentId: string; version: number },
  settings: Pick<TopicSettings, 'minPerDocument' | 'maxPerDocument'>,
  source?: TopicSource,
): Promise<TopicDraft> {
  const max = Math.max(settings.maxPerDocument, 1);
  const min = Math.min(settings.minPerDocument, max);
  if (providers.chat) {
    try {
      const doc = source ?? (await loadDocumentText(db, ref));
      return { candidates: await extractTopicsWithModel(providers.chat, doc, { min, max }), modelCalls: 1 };
    } catch (error) {
      const text = await loadDocumentText(db, ref);
      return {
        candidates: await keywordCandidates(db, ref.documentId, text, max),
        modelCalls: 1,
        fallback: `the model's topics failed (${reasonOf(error)}); keywords used instead`,
      };
    }
  }
  const text = await loadDocumentText(db, ref);
  return { candidates: await keywordCandidates(db, ref.documentId, text, max), modelCalls: 0 };
}

/**
 * Keeps a draft on the version's document node, so the Topics step links it without extracting
 * again (the Summarize step drafts topics from the section summaries while the document summary is
 * generated).
 */
export async function saveTopicDraft(
  db: Db,
  ref: { documentId: string; version: number },
  draft: TopicDraft,
): Promise<void> {
  await db.execute(sql`
    UPDATE nodes SET metadata = metadata || jsonb_build_object('topicDraft', ${JSON.stringify(draft)}::jsonb)
    WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int AND node_type = 'document'`);
}

async function savedDraft(
  db: Db,
  ref: { documentId: string; version: number },
): Promise<TopicDraft | undefined> {
  const [row] = await queryRows<{ draft: TopicDraft | string | null }>(
    db,
    sql`SELECT metadata->'topicDraft' AS draft FROM nodes
        WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int AND node_type = 'document'`,
  );
  return jsonColumn<TopicDraft | undefined>(row?.draft, undefined);
}

/**
 * Derives one version's topics and links its document to them, replacing the document's old links
 * (seed 000 §5.3): the draft saved by the Summarize step or, without one, `extractTopicCandidates`;
 * the candidates then merge with existing topics by name or embedding similarity.
 *
 * @example const { links } = await deriveDocumentTopics(db, providers, { documentId, version }, settings);
 */
export async function deriveDocumentTopics(
  db: Db,
  providers: Providers,
  ref: { documentId: string; version: number },
  settings: TopicSettings,
): Promise<DerivedTopics> {
  const [doc] = await queryRows<{ current_version: number | null }>(
    db,
    sql`SELECT current_version FROM documents WHERE id = ${ref.documentId}::uuid`,
  );
  if ((doc?.current_version ?? 0) > ref.version) return { links: [], modelCalls: 0, superseded: true };
  await recordVersionTerms(db, ref);
  const saved = await savedDraft(db, ref);
  const draft = saved
    ? { ...saved, modelCalls: 0 }
    : await extractTopicCandidates(db, providers, ref, settings);
  await refreshTopicVectors(db, providers.embedder, settings.batchSize);
  const links = await linkDocumentTopics(
    db,
    providers.embedder,
    ref.documentId,
    draft.candidates,
    settings.mergeThreshold,
  );
  return { links, modelCalls: draft.modelCalls, ...(draft.fallback ? { fallback: draft.fallback } : {}) };
}

async function keywordCandidates(
  db: Db,
  documentId: string,
  text: DocumentText,
  max: number,
): Promise<TopicCandidate[]> {
  const tokens = [...keywordFrequencies(text.weighted)]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, KEYWORD_CANDIDATES)
    .map(([token]) => token);
  const { corpusSize, frequency } = await corpusFrequencies(db, documentId, tokens);
  const allowed = new Set(tokens);
  return keywordTopics(text.weighted, {
    max,
    corpusSize,
    documentFrequency: (token) => (allowed.has(token) ? (frequency.get(token) ?? 0) : corpusSize),
  });
}

import { contextualizeVersion } from '../../enrich/context/contextualize.ts';
import { summarizeVersion } from '../../enrich/summaries.ts';
import { extractTopicCandidates, saveTopicDraft } from '../../enrich/topics/derive.ts';
import { embedVersion, LEAF_NODE_TYPES } from '../../index/embed-version.ts';
import { ensureVectorIndex } from '../../index/vector-index.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { mergeVersionStats, startStep } from '../versions.ts';

/**
 * Summarize: bottom-up section and document summaries; with a chat model, a contextual sentence for
 * each paragraph from the document summary (offline the index text keeps its meta-content form) and,
 * at the same time, the draft of the version's topics (which the Topics step links) and the vectors
 * of the sections and the document (title and summary); then one vector per leaf. The embedder's
 * HNSW index is created first if missing, unless a bulk load defers it. Counts are merged into the version's stats.
 *
 * @example await summarize({ documentId, version: 1 }, deps) // { documentId, version: 1 }
 */
export async function summarize(raw: unknown, deps: PipelineDeps): Promise<VersionRef> {
  const ref = parseStepInput(versionRefSchema, raw, 'Summarize');
  const { db, providers, config } = deps;
  await startStep(db, ref, 'summarize');
  const concurrency = config.providers.chat.maxConcurrency;
  const summaries = await summarizeVersion(db, providers, ref, { concurrency });
  const chat = providers.chat;
  const { embedder } = providers;
  const batchSize = config.providers.embedder.batchSize;
  if (!deps.deferVectorIndex?.()) await ensureVectorIndex(db, embedder, config.search.hnsw);
  // Sections and the document are embedded while the model writes the paragraph contexts and drafts
  // the topics (both need only the summaries): their database work fills the model's latency.
  const [contexts, topicDraft, outline] = await Promise.all([
    chat && summaries.documentSummary
      ? contextualizeVersion(db, chat, ref, { documentSummary: summaries.documentSummary, concurrency })
      : undefined,
    chat ? extractTopicCandidates(db, providers, ref, config.topics) : undefined,
    embedVersion(db, embedder, ref, batchSize, ['section', 'document']),
  ]);
  if (topicDraft) await saveTopicDraft(db, ref, topicDraft);
  const leaves = await embedVersion(db, embedder, ref, batchSize, LEAF_NODE_TYPES);
  const embedded = outline.embedded + leaves.embedded;
  await mergeVersionStats(db, ref, {
    summarizedSections: summaries.sections,
    reusedSummaries: summaries.reused,
    modelCalls: summaries.modelCalls + (contexts?.modelCalls ?? 0) + (topicDraft?.modelCalls ?? 0),
    contextualizedParagraphs: contexts?.paragraphs ?? 0,
    embeddings: embedded,
  });
  return ref;
}

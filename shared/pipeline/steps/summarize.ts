import { contextualizeVersion } from '../../enrich/context/contextualize.ts';
import { summarizeVersion } from '../../enrich/summaries.ts';
import { ALL_NODE_TYPES, embedVersion } from '../../index/embed-version.ts';
import { ensureVectorIndex } from '../../index/vector-index.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { mergeVersionStats, startStep } from '../versions.ts';

/**
 * Summarize: bottom-up section and document summaries; with a chat model, a contextual sentence for
 * each paragraph from the document summary (offline the index text keeps its meta-content form);
 * then the embedder's HNSW index if missing (unless a bulk load defers it) and one vector per node
 * (leaves, sections, document). Counts are merged into the version's stats.
 *
 * @example await summarize({ documentId, version: 1 }, deps) // { documentId, version: 1 }
 */
export async function summarize(raw: unknown, deps: PipelineDeps): Promise<VersionRef> {
  const ref = parseStepInput(versionRefSchema, raw, 'Summarize');
  const { db, providers, config } = deps;
  await startStep(db, ref, 'summarize');
  const concurrency = config.providers.chat.maxConcurrency;
  const summaries = await summarizeVersion(db, providers, ref, { concurrency });
  const contexts =
    providers.chat && summaries.documentSummary
      ? await contextualizeVersion(db, providers.chat, ref, {
          documentSummary: summaries.documentSummary,
          concurrency,
        })
      : undefined;
  if (!deps.deferVectorIndex?.()) await ensureVectorIndex(db, providers.embedder, config.search.hnsw);
  const { embedded } = await embedVersion(
    db,
    providers.embedder,
    ref,
    config.providers.embedder.batchSize,
    ALL_NODE_TYPES,
  );
  await mergeVersionStats(db, ref, {
    summarizedSections: summaries.sections,
    reusedSummaries: summaries.reused,
    modelCalls: summaries.modelCalls + (contexts?.modelCalls ?? 0),
    contextualizedParagraphs: contexts?.paragraphs ?? 0,
    embeddings: embedded,
  });
  return ref;
}

import { summarizeVersion } from '../../enrich/summaries.ts';
import { embedVersion } from '../../index/embed-version.ts';
import { ensureVectorIndex } from '../../index/vector-index.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { mergeVersionStats, startStep } from '../versions.ts';

/**
 * Summarize: bottom-up section and document summaries (summaries are part of what gets embedded and
 * searched), then the embedder's HNSW index if missing (unless a bulk load defers it), then one
 * vector per leaf node. Counts are merged into the version's stats.
 *
 * @example await summarize({ documentId, version: 1 }, deps) // { documentId, version: 1 }
 */
export async function summarize(raw: unknown, deps: PipelineDeps): Promise<VersionRef> {
  const ref = parseStepInput(versionRefSchema, raw, 'Summarize');
  const { db, providers, config } = deps;
  await startStep(db, ref, 'summarize');
  const summaries = await summarizeVersion(db, providers, ref, {
    concurrency: config.providers.chat.maxConcurrency,
  });
  if (!deps.deferVectorIndex?.()) await ensureVectorIndex(db, providers.embedder, config.search.hnsw);
  const { embedded } = await embedVersion(db, providers.embedder, ref, config.providers.embedder.batchSize);
  await mergeVersionStats(db, ref, {
    summarizedSections: summaries.sections,
    modelCalls: summaries.modelCalls,
    embeddings: embedded,
  });
  return ref;
}

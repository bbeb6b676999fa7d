import type { SQL } from 'drizzle-orm';
import { errorFields, log } from '#shared/log/logger.ts';
import { writeChangeSummary } from '../../diff/change-summary.ts';
import { startStepWrites, versionStatsUpdate } from '../../documents/versions.ts';
import { contextualizeVersion } from '../../enrich/context/contextualize.ts';
import { summarizeVersion } from '../../enrich/summaries.ts';
import { embedNodes, embedVersion, LEAF_NODE_TYPES } from '../../index/embed-version.ts';
import { ensureVectorIndex } from '../../index/vector-index.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import { STEP_BUDGET_MS } from '../definition.ts';
import type { PipelineDeps } from '../types.ts';

/**
 * Summarize: bottom-up section and document summaries, each model call also writing the contextual
 * sentences of its paragraphs (offline the index text keeps its meta-content form). Once the
 * sections are done, and while the model writes the document summary, the sections and leaves are
 * embedded; the document and its own paragraphs follow its summary (offline, with every summary at
 * hand at once, all nodes are embedded in one pass). Paragraphs a summary
 * call left without a context get one from the document summary in a separate call. The embedder's
 * HNSW index is created first if missing, unless a bulk load defers it. A version n > 1 also gets
 * its change summary against the previous ready version (docs/versions.md). Counts are merged into
 * the version's stats.
 *
 * Bounded: no section summary starts once the step's budget (`STEP_BUDGET_MS`, half its state's
 * timeout) is spent; the summaries written so far stay and the step returns `done: false`, and the
 * state machine calls it again, which reuses them (this version's own, by key) and goes on. Only the
 * call that finishes the sections writes the document summary, the contexts and the embeddings.
 *
 * @example await summarize({ documentId, version: 1 }, deps) // { documentId, version: 1, done: true }
 */
export async function summarize(raw: unknown, deps: PipelineDeps): Promise<VersionRef & { done: boolean }> {
  const ref = parseStepInput(versionRefSchema, raw, 'Summarize');
  const deadline = Date.now() + (deps.stepBudgetMs ?? STEP_BUDGET_MS.Summarize);
  const { db, providers, config } = deps;
  const concurrency = config.providers.chat.maxConcurrency;
  const chat = providers.chat;
  const { embedder } = providers;
  const batchSize = config.providers.embedder.batchSize;
  const indexReady = deps.deferVectorIndex?.()
    ? Promise.resolve()
    : ensureVectorIndex(db, embedder, config.search.hnsw);
  // Awaited below; marked handled so a failure before then is not reported as unhandled.
  indexReady.catch(() => undefined);
  let early = 0;
  // With a model, the sections and leaves are embedded while it writes the document summary; offline
  // every summary is at hand at once, and every node is embedded in one pass after them.
  const summaries = await summarizeVersion(db, providers, ref, {
    concurrency,
    deadline,
    // The step starts (`startStep`) with its first read.
    writes: startStepWrites(ref, 'summarize'),
    ...(chat && {
      afterSections: async (done) => {
        await Promise.all([indexReady, done.written]);
        const nodeTypes = ['section', ...LEAF_NODE_TYPES] as const;
        early = (await embedVersion(db, embedder, ref, batchSize, nodeTypes, { exclude: done.late }))
          .embedded;
      },
    }),
  });
  await indexReady;
  if (!summaries.complete) {
    await db.execute(
      versionStatsUpdate(ref, { summarizedSections: summaries.sections, reusedSummaries: summaries.reused }),
    );
    return { ...ref, done: false };
  }
  const changes = changeSummary(deps, ref);
  const contexts =
    chat && summaries.documentSummary && summaries.withoutContext > 0
      ? await contextualizeVersion(db, chat, ref, {
          documentSummary: summaries.documentSummary,
          concurrency,
        })
      : undefined;
  // The counts go with the last embeddings written.
  const stats = async (embedded: number) => [
    versionStatsUpdate(ref, {
      summarizedSections: summaries.sections,
      reusedSummaries: summaries.reused,
      modelCalls: summaries.modelCalls + (contexts?.modelCalls ?? 0) + (await changes).modelCalls,
      contextualizedParagraphs: summaries.contexts + (contexts?.paragraphs ?? 0),
      embeddings: early + embedded,
    }),
  ];
  // Offline every index text is final once the summaries are written, and at hand: all nodes at once.
  if (summaries.indexTexts)
    await embedNodes(db, embedder, summaries.indexTexts, batchSize, { writes: stats });
  else await embedLate(deps, ref, summaries.late, stats);
  return { ...ref, done: true };
}

/** The version's "changes since the previous version"; a failure there never fails the version. */
async function changeSummary(deps: PipelineDeps, ref: VersionRef): Promise<{ modelCalls: number }> {
  try {
    return await writeChangeSummary(deps.db, deps.providers.chat, ref);
  } catch (error) {
    log.warn('summarize: change summary failed', { ...ref, ...errorFields(error) });
    return { modelCalls: 0 };
  }
}

/** The document and the paragraphs whose index text was settled only after its summary. */
function embedLate(
  deps: PipelineDeps,
  ref: VersionRef,
  late: ReadonlySet<string>,
  writes: (embedded: number) => Promise<SQL[]>,
) {
  const batchSize = deps.config.providers.embedder.batchSize;
  return embedVersion(deps.db, deps.providers.embedder, ref, batchSize, ['document', 'paragraph'], {
    include: late,
    writes,
  });
}

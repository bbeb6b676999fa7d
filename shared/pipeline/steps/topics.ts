import { startStep } from '../../documents/versions.ts';
import { deriveDocumentTopics } from '../../enrich/topics/derive.ts';
import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';

/**
 * Topics: the version's topics drafted (a chat model naming them from the stored title, summary and
 * section outline, or offline keywords), merged with existing topics and linked to the document in
 * place of its old links; counts go to the version's stats.
 *
 * @example await topics({ documentId, version: 1 }, deps) // returns its input
 */
export async function topics(raw: unknown, deps: PipelineDeps): Promise<VersionRef> {
  const ref = parseStepInput(versionRefSchema, raw, 'Topics');
  const { db, providers, config } = deps;
  const { currentVersion } = await startStep(db, ref, 'topics');
  await deriveDocumentTopics(
    db,
    providers,
    ref,
    { ...config.topics, batchSize: config.providers.embedder.batchSize },
    { currentVersion },
  );
  return ref;
}

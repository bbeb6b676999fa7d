import { parseStepInput, type VersionRef, versionRefSchema } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { startStep } from '../versions.ts';

/**
 * Topics: extract topics, merge them with existing ones, link the document. A pass-through until its
 * issue: it records the step and returns its input.
 */
export async function topics(raw: unknown, deps: PipelineDeps): Promise<VersionRef> {
  const ref = parseStepInput(versionRefSchema, raw, 'Topics');
  await startStep(deps.db, ref, 'topics');
  return ref;
}

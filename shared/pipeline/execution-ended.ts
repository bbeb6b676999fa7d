import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { schema } from '../db/index.ts';
import { parseStepInput, pipelineInputSchema, type RegisterOutput } from './contract.ts';
import { failureReason } from './failure-reason.ts';
import { markFailed } from './steps/mark-failed.ts';
import type { PipelineDeps } from './types.ts';

const { documentVersions } = schema;

/** Step Functions' "Execution Status Change" event (EventBridge) of an execution that did not succeed. */
export const executionEndedEventSchema = z.object({
  source: z.literal('aws.states'),
  'detail-type': z.literal('Step Functions Execution Status Change'),
  detail: z.object({
    executionArn: z.string().min(1),
    status: z.enum(['FAILED', 'TIMED_OUT', 'ABORTED']),
    /** The execution input as JSON text: the pipeline input contract (`key`, `documentId`, ...). */
    input: z.string(),
    error: z.string().nullish(),
    cause: z.string().nullish(),
  }),
});
export type ExecutionEndedEvent = z.infer<typeof executionEndedEventSchema>;

/** What Register recorded for the execution (its output), read from the execution's history. */
export type RegistrationOf = (executionArn: string) => Promise<RegisterOutput | undefined>;

export interface ExecutionEndedResult {
  /** Whether this call marked something failed (false: the pipeline had recorded the outcome). */
  recorded: boolean;
  reason: string;
  documentId?: string;
  version?: number;
}

/** Why an execution stopped that no state of the definition saw. */
const STOPPED = {
  TIMED_OUT: {
    Error: 'States.Timeout',
    Cause: 'the ingestion took longer than the state machine allows (executionTimeoutMinutes)',
  },
  ABORTED: { Error: 'States.Aborted', Cause: 'the ingestion was stopped before it finished' },
} as const;

/**
 * Records a failed, timed-out or aborted execution that the definition's Catch could not: an
 * execution timeout or a stop never reaches MarkFailed, and neither does an error no Catch matches
 * or a MarkFailed that failed itself. The version Register created (from the execution's history)
 * is marked failed with the reason through the MarkFailed core, if it is still `processing`; a
 * version already recorded (by MarkFailed, or rejected by Register) is left alone, so the rule may
 * see every failure. Without a version, only a timeout or a stop is recorded on the document (a
 * failed Register was caught and recorded).
 *
 * @example await recordEndedExecution(event, deps, registrationReader(sfn))
 */
export async function recordEndedExecution(
  raw: unknown,
  deps: PipelineDeps,
  registrationOf: RegistrationOf,
): Promise<ExecutionEndedResult> {
  const { detail } = parseStepInput(executionEndedEventSchema, raw, 'ExecutionEnded');
  const input = parseStepInput(pipelineInputSchema, parseJson(detail.input), 'ExecutionEnded input');
  const error =
    detail.status === 'FAILED'
      ? { Error: detail.error ?? 'States.TaskFailed', Cause: detail.cause ?? undefined }
      : STOPPED[detail.status];
  const reason = failureReason(error);
  const register = await registrationOf(detail.executionArn);
  if (register?.outcome === 'created') {
    const { documentId, version } = register;
    const [row] = await deps.db
      .select({ status: documentVersions.status })
      .from(documentVersions)
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
    if (row?.status !== 'processing') return { recorded: false, reason, documentId, version };
    await markFailed({ ...input, register, error }, deps);
    return { recorded: true, reason, documentId, version };
  }
  if (register || detail.status === 'FAILED') return { recorded: false, reason };
  await markFailed({ ...input, error }, deps);
  return { recorded: true, reason, documentId: input.documentId };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

import { z } from 'zod';
import { ValidationError } from '../errors.ts';

/** The execution input (see `pipelineDefinition`): what StartExecution receives. */
export const pipelineInputSchema = z.object({
  key: z.string().min(1),
  documentId: z.uuid().optional(),
  force: z.boolean().optional(),
  /**
   * The order of the write this execution is for: S3's `detail.object.sequencer` (hex; compared after
   * left-padding), or the upload's. An execution older than the latest version's creates nothing.
   */
  sequencer: z
    .string()
    .regex(/^[0-9a-fA-F]{1,32}$/, 'a hex string of at most 32 digits')
    .optional(),
  /** Resume this version, left `processing` by a process that stopped (local crash recovery). */
  resumeVersion: z.number().int().positive().optional(),
});
export type PipelineInput = z.infer<typeof pipelineInputSchema>;

/** What every step after Register receives: one version of one document. */
export const versionRefSchema = z.object({
  documentId: z.uuid(),
  version: z.number().int().positive(),
});
export type VersionRef = z.infer<typeof versionRefSchema>;

/** One DescribeImage invocation: the images of the version after ordinal `after`. */
export const imagesInputSchema = versionRefSchema.extend({ after: z.number().int() });
export type ImagesInput = z.infer<typeof imagesInputSchema>;

/** Where the images stand (Parse's and DescribeImage's output at `$.parse.images`): a cursor and a count. */
export interface ImagesCursor {
  /** Images not described yet. */
  left: number;
  /** The ordinal of the last image described (-1: none yet). */
  after: number;
}

export const registerOutputSchema = versionRefSchema.extend({
  outcome: z.enum(['created', 'unchanged', 'rejected']),
  /** Set with `unchanged` when the event was older than the latest version's (nothing was read into a version). */
  stale: z.boolean().optional(),
  /** Why a file was rejected (unsupported type, empty, not UTF-8, too large), or why its unchanged bytes failed before. */
  reason: z.string().optional(),
});
export type RegisterOutput = z.infer<typeof registerOutputSchema>;

/** What a Catch puts at `$.error`: in AWS `Cause` is a JSON string from Lambda. */
export const stateErrorSchema = z.object({ Error: z.string(), Cause: z.unknown().optional() });
export type StateError = z.infer<typeof stateErrorSchema>;

/** MarkFailed receives the whole state: the execution input plus what the steps before added. */
export const markFailedInputSchema = pipelineInputSchema.extend({
  register: registerOutputSchema.optional(),
  error: stateErrorSchema.optional(),
});
export type MarkFailedInput = z.infer<typeof markFailedInputSchema>;

/**
 * Validates a step's input (a boundary: in AWS it arrives as a Lambda event), with an error that
 * names the step and the field.
 */
export function parseStepInput<T>(schema: z.ZodType<T>, input: unknown, step: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
  throw new ValidationError(`${step} input is invalid: ${problems.join('; ')}`);
}

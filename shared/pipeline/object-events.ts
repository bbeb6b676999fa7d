import { z } from 'zod';
import { ValidationError } from '../errors.ts';
import type { PipelineInput } from './contract.ts';

const hex = z.string().regex(/^[0-9a-fA-F]{1,32}$/);

/**
 * The S3 events EventBridge delivers (`source: aws.s3`). Only what the pipeline uses is required;
 * the rest of the envelope passes through.
 */
export const objectEventSchema = z.object({
  'detail-type': z.enum(['Object Created', 'Object Deleted']),
  detail: z.object({
    bucket: z.object({ name: z.string() }).optional(),
    object: z.object({
      key: z.string().min(1),
      size: z.number().optional(),
      sequencer: hex.optional(),
      'version-id': z.string().optional(),
    }),
    reason: z.string().optional(),
  }),
});
export type ObjectEvent = z.infer<typeof objectEventSchema>;

export type ObjectAction =
  | { kind: 'ingest'; input: PipelineInput }
  | { kind: 'remove'; key: string; sequencer?: string };

/**
 * What an S3 event asks for: "Object Created" starts an ingestion of the key carrying the event's
 * sequencer (so a late duplicate or an out-of-order event creates nothing), "Object Deleted" removes
 * the document. A malformed event fails with the path of the bad field (`detail.object.key: ...`).
 *
 * @example objectEventAction(event) // { kind: 'ingest', input: { key: 'docs/a.md', sequencer: '0062...' } }
 */
export function objectEventAction(event: unknown): ObjectAction {
  const parsed = objectEventSchema.safeParse(event);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`);
    throw new ValidationError(`Not an S3 object event: ${problems.join('; ')}`);
  }
  const { key, sequencer } = parsed.data.detail.object;
  if (parsed.data['detail-type'] === 'Object Deleted') return { kind: 'remove', key, sequencer };
  return { kind: 'ingest', input: { key, ...(sequencer ? { sequencer } : {}) } };
}

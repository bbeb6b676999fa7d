import { z } from 'zod';

export const QA_MODES = ['auto', 'standard', 'agent', 'two-stage', 'documents'] as const;
export type QaMode = (typeof QA_MODES)[number];

/** The body of `POST /api/qa/ask` (seed 000 §7.1), also what the CLI builds. */
export const askRequestSchema = z.object({
  question: z.string().trim().min(1, 'question must not be empty').max(2000),
  mode: z.enum(QA_MODES).default('auto'),
  /** Only documents linked to one of these topics. */
  topic_filter: z.array(z.uuid()).max(100).optional(),
  /** Only these documents. */
  document_ids: z.array(z.uuid()).max(1000).optional(),
  /** That version of the documents; absent or null means each document's current version. */
  version: z
    .number()
    .int()
    .positive()
    .nullish()
    .transform((v) => v ?? undefined),
  /** Send the reasoning trace in the response (trace events stream either way). */
  show_reasoning: z.boolean().optional(),
});

export type AskRequest = z.infer<typeof askRequestSchema>;
export type AskRequestInput = z.input<typeof askRequestSchema>;

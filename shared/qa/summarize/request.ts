import { z } from 'zod';

/** The body of `POST /api/qa/summarize`: one document (a version of it) or one topic. */
export const summarizeRequestSchema = z
  .object({
    document_id: z.uuid().optional(),
    topic_id: z.uuid().optional(),
    /** The document's version; absent means its current one. */
    version: z.number().int().positive().optional(),
  })
  .refine((r) => (r.document_id === undefined) !== (r.topic_id === undefined), {
    message: 'give exactly one of document_id and topic_id',
  });

export type SummarizeRequest = z.infer<typeof summarizeRequestSchema>;

/** The events of a summary stream, encoded as Server-Sent Events like the answers' (docs/events.md). */
export type SummarizeEvent =
  | {
      type: 'meta';
      data: { kind: 'document' | 'topic'; id: string; name: string; provider: string; version?: number };
    }
  | { type: 'progress'; data: { stage: string; message: string } }
  | { type: 'delta'; data: { text: string } }
  | { type: 'usage'; data: { stage: string; inputTokens: number; outputTokens: number; model: string } }
  | {
      type: 'references';
      data: { documents: { document_id: string; document_name: string; version: number }[] };
    }
  | {
      type: 'done';
      data: { summary: string; kind: 'document' | 'topic'; id: string; name: string; provider: string };
    }
  | { type: 'error'; data: { code: string; message: string } };

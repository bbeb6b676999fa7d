import { z } from 'zod';
import { MAX_INT4 } from '../search/version-number.ts';
import type { Rewrite, Turn } from './conversation/turns.ts';

export const QA_MODES = ['auto', 'standard', 'agent', 'two-stage', 'documents'] as const;
export type QaMode = (typeof QA_MODES)[number];

/** At most this many earlier turns in `history` (and read from a stored conversation). */
export const MAX_HISTORY_TURNS = 20;

const historyTurn = z.object({
  question: z.string().trim().min(1, 'question must not be empty').max(2000),
  answer: z.string().max(20_000),
});

/** The body of `POST /api/qa/ask` (docs/spec.md#ask-request), also what the CLI builds. */
export const askRequestSchema = z
  .object({
    question: z.string().trim().min(1, 'question must not be empty').max(2000),
    mode: z.enum(QA_MODES).default('auto'),
    /** Only documents linked to one of these topics; `[]` drops a filter carried over in a conversation. */
    topic_filter: z.array(z.uuid()).max(100).optional(),
    /** Only these documents; `[]` drops a filter carried over in a conversation. */
    document_ids: z.array(z.uuid()).max(1000).optional(),
    /**
     * That version of the documents; absent means the conversation's version (each document's
     * current one in a new conversation), null means each document's current version from now on.
     */
    version: z.number().int().positive().max(MAX_INT4).nullish(),
    /** Send the reasoning trace in the response (trace events stream either way). */
    show_reasoning: z.boolean().optional(),
    /** The conversation this question continues; absent: a new one (its id comes in `meta`). */
    conversation_id: z.uuid().optional(),
    /** Earlier turns, oldest first, for callers that keep the conversation themselves. */
    history: z
      .array(historyTurn)
      .max(MAX_HISTORY_TURNS, `history holds at most ${MAX_HISTORY_TURNS} turns`)
      .optional(),
  })
  .refine((r) => !(r.conversation_id && r.history), {
    message: 'send either conversation_id (the server keeps the turns) or history, not both',
    path: ['history'],
  });

export type AskRequestInput = z.input<typeof askRequestSchema>;

/**
 * A request as the flows receive it (`ask` resolves it from the body): `question` is the standalone
 * question (a follow-up resolved against the earlier turns), the filters those in force in the
 * conversation (`version` never null), and `turn` what the user asked and the conversation it
 * belongs to (absent when a flow runs on its own).
 */
export type AskRequest = z.infer<typeof askRequestSchema> & {
  turn?: {
    /** The question as the user asked it. */
    asked: string;
    conversationId: string;
    /** Earlier turns of the conversation, oldest first. */
    earlier: Turn[];
    /** Set when there were earlier turns. */
    rewrite?: Rewrite;
  };
};

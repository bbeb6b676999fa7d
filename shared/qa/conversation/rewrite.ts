import type { ChatModel } from '#shared/llm/types.ts';
import type { QaEvent } from '../events.ts';
import { condenseQuestion } from './condense.ts';
import { isFollowUp, resolveFollowUp } from './follow-up.ts';
import { type Rewrite, recentTurns, type Turn } from './turns.ts';

/**
 * The question retrieval uses on a turn with earlier turns. With a chat model: unchanged
 * (`from_turns: []`) when it stands alone (no pronoun, no ellipsis, content words of its own),
 * otherwise written by the model from the recent turns within `budgetTokens` (role `condense`).
 * Offline, or when the model fails, `resolveFollowUp` decides: it also gives a question that names
 * nothing ("保研率是多少") the conversation's subject. Yields the model's usage and a trace-free failure notice;
 * returns the rewrite.
 */
export async function* rewriteQuestion(
  chat: ChatModel | undefined,
  question: string,
  earlier: Turn[],
  budgetTokens: number,
): AsyncGenerator<QaEvent, Rewrite> {
  if (chat && !isFollowUp(question)) return { standalone_question: question, from_turns: [] };
  const recent = recentTurns(earlier, budgetTokens);
  if (chat && recent.length > 0) {
    try {
      const { rewrite, usage } = await condenseQuestion(chat, question, recent);
      yield usage;
      return rewrite;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      yield {
        type: 'progress',
        data: {
          stage: 'rewrite',
          message: `The model could not rewrite the follow-up (${reason}); resolved offline.`,
        },
      };
    }
  }
  return resolveFollowUp(question, earlier);
}

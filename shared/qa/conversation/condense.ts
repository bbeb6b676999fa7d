import { z } from 'zod';
import { fillPrompt, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ChatModel } from '#shared/llm/types.ts';
import type { QaEvent } from '../events.ts';
import { loadQaPrompt } from '../prompt.ts';
import type { Rewrite } from './turns.ts';

const condensed = z.object({
  standalone_question: z.string().trim().min(1).max(2000),
  from_turns: z.array(z.number().int()).max(50).default([]),
});

/** Earlier turns stay data: no tag inside them can close their block. */
const asData = (text: string) => stripDelimiters(text).replace(/<\/?(?:turn|conversation)\b[^>]*>/gi, '');

/**
 * The standalone question written by the chat model (role `condense`, one small call) from the
 * recent turns, numbered as in the conversation; turn numbers the model names that it was not shown
 * are dropped. Returns the usage event of the call.
 */
export async function condenseQuestion(
  chat: ChatModel,
  question: string,
  turns: { turn: { question: string; answer: string }; number: number }[],
): Promise<{ rewrite: Rewrite; usage: QaEvent }> {
  const block = turns
    .map(
      ({ turn, number }) =>
        `<turn number="${number}">\nQ: ${asData(turn.question)}\nA: ${asData(turn.answer)}\n</turn>`,
    )
    .join('\n');
  const result = await chat.structured(
    {
      role: 'condense',
      messages: [{ role: 'user', content: fillPrompt(loadQaPrompt('condense'), { turns: block, question }) }],
    },
    condensed,
  );
  const shown = new Set(turns.map((t) => t.number));
  const fromTurns = [...new Set(result.value.from_turns.filter((n) => shown.has(n)))].sort((a, b) => a - b);
  return {
    rewrite: { standalone_question: result.value.standalone_question, from_turns: fromTurns },
    usage: { type: 'usage', data: { stage: 'condense', ...result.usage, model: result.model } },
  };
}

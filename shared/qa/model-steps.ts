import { z } from 'zod';
import type { ChatModel } from '#shared/llm/types.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { fillPrompt } from '../llm/prompt-files.ts';
import type { QaEvent } from './events.ts';
import { loadQaPrompt, passagesBlock } from './prompt.ts';

const judgment = z.object({ sufficient: z.boolean(), reason: z.string().max(1000) });

/** Passages as the prompts show them: numbered from 1 in rank order, with their document path. */
export function promptPassages(hits: SearchHit[]): string {
  return passagesBlock(hits.map((hit, i) => ({ citation: i + 1, source: hit.path, content: hit.content })));
}

/**
 * The model's judgment (role `judge`) of whether the passages can answer the question directly
 * (docs/spec.md#quality-check), with the usage event of the call.
 */
export async function judgeRetrieval(
  chat: ChatModel,
  question: string,
  hits: SearchHit[],
): Promise<{ sufficient: boolean; reason: string; usage: QaEvent }> {
  const prompt = fillPrompt(loadQaPrompt('judge'), {
    question,
    contexts: promptPassages(hits.slice(0, 5)),
  });
  const result = await chat.structured(
    { role: 'judge', messages: [{ role: 'user', content: prompt }] },
    judgment,
  );
  return {
    ...result.value,
    usage: { type: 'usage', data: { stage: 'judge', ...result.usage, model: result.model } },
  };
}

/** Streams the model's answer (role `answer`) over the numbered passages: delta events, then usage. */
export async function* streamModelAnswer(
  chat: ChatModel,
  question: string,
  hits: SearchHit[],
): AsyncGenerator<QaEvent> {
  const prompt = fillPrompt(loadQaPrompt('answer'), { question, contexts: promptPassages(hits) });
  const stream = chat.stream({
    role: 'answer',
    system: loadQaPrompt('answer-system'),
    messages: [{ role: 'user', content: prompt }],
  });
  for await (const event of stream) {
    if (event.type === 'delta') {
      if (event.text) yield { type: 'delta', data: { text: event.text } };
    } else {
      yield { type: 'usage', data: { stage: 'answer', ...event.usage, model: event.model } };
    }
  }
}

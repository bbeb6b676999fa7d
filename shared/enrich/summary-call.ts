import { z } from 'zod';
import type { ChatModel } from '#shared/llm/types.ts';
import { fillPrompt, loadPrompt } from './prompt.ts';

const summarySchema = z.object({
  summary: z.string().trim(),
  contexts: z.array(z.object({ id: z.number().int(), context: z.string().trim() })).default([]),
});

/** What one summary call is about: a section (or the document) and its prompt data. */
export interface SummaryCallInput {
  kind: 'section' | 'document';
  title: string;
  /** The document title and section path, for the contexts: where the passages sit. */
  location: string;
  /** Child summaries, tables, images and the numbered passages (see `modelInput`). */
  content: string;
}

/**
 * One structured call that summarizes a section (or the document) and, in the same answer, writes
 * the contextual sentence of each numbered passage it contains (seed 003 §3.3): the contexts cost no
 * call of their own and come from the text around the passage. Returns the summary (null when
 * empty) and the contexts by passage number.
 */
export async function summarizeWithContexts(
  chat: ChatModel,
  input: SummaryCallInput,
): Promise<{ summary: string | null; contexts: Map<number, string> }> {
  const prompt =
    input.kind === 'document'
      ? fillPrompt(loadPrompt('summarize-document'), { title: input.title, content: input.content })
      : fillPrompt(loadPrompt('summarize-section'), {
          title: input.title,
          location: input.location,
          content: input.content,
        });
  const { value } = await chat.structured(
    {
      role: 'summarize',
      system: loadPrompt('summarize-system'),
      messages: [{ role: 'user', content: prompt }],
    },
    summarySchema,
  );
  const contexts = new Map(value.contexts.filter((c) => c.context).map((c) => [c.id, c.context]));
  return { summary: value.summary || null, contexts };
}

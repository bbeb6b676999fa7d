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
 * the contextual sentence of each numbered passage it contains (docs/spec.md#contexts): the
 * contexts cost no call of their own and come from the text around the passage. A model that cannot
 * produce the JSON (invalid even after the repair retry) is asked once more for the summary alone,
 * as plain text; its passages then get no context here. Returns the summary (null when empty), the
 * contexts by passage number and the calls made.
 */
export async function summarizeWithContexts(
  chat: ChatModel,
  input: SummaryCallInput,
): Promise<{ summary: string | null; contexts: Map<number, string>; calls: number }> {
  const values = { title: input.title, location: input.location, content: input.content };
  try {
    const { value } = await chat.structured(
      {
        role: 'summarize',
        system: loadPrompt('summarize-system'),
        messages: [{ role: 'user', content: fillPrompt(loadPrompt(`summarize-${input.kind}`), values) }],
      },
      summarySchema,
    );
    const contexts = new Map(value.contexts.filter((c) => c.context).map((c) => [c.id, c.context]));
    return { summary: value.summary || null, contexts, calls: 1 };
  } catch (error) {
    if (!isInvalidOutput(error)) throw error;
    const result = await chat.complete({
      role: 'summarize',
      system: loadPrompt('summarize-text-system'),
      messages: [{ role: 'user', content: fillPrompt(loadPrompt(`summarize-${input.kind}-text`), values) }],
    });
    return { summary: result.text.trim() || null, contexts: new Map(), calls: 2 };
  }
}

/** Output that did not match the schema (the providers wrap it in a ProviderError). */
function isInvalidOutput(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e.name === 'InvalidOutputError') return true;
  return false;
}

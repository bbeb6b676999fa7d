import { z } from 'zod';
import type { ChatModel } from '#shared/llm/types.ts';
import { fillPrompt, loadPrompt } from '../prompt.ts';
import { formatOutline, type TopicSource } from './outline.ts';

/** A topic as extracted from one document, before it is merged with the existing ones. */
export interface TopicCandidate {
  name: string;
  description: string;
  confidence: number;
  /** Offline key phrases: the normalised phrase, which other documents' kept phrases are matched against. */
  key?: string;
}

const topicsSchema = z.object({
  topics: z.array(
    z.object({
      name: z.string().trim().min(1).max(200),
      description: z.string().trim().default(''),
      relevance: z.number().min(0).max(1).default(0.8),
    }),
  ),
});

/** Outline characters in the prompt: deeper levels are dropped first when a document's is longer. */
const MAX_OUTLINE_CHARS = 8_000;

/**
 * Topics from a chat model (docs/spec.md#topics): one structured call over the document's title,
 * summary (when it has one) and section outline; the names are de-duplicated
 * (case-insensitive) and cut to `max`.
 */
export async function extractTopicsWithModel(
  chat: ChatModel,
  doc: TopicSource,
  limits: { min: number; max: number },
): Promise<TopicCandidate[]> {
  const outline = formatOutline(doc.sections, MAX_OUTLINE_CHARS);
  const { value } = await chat.structured(
    {
      role: 'summarize',
      system: loadPrompt('extract-topics-system'),
      messages: [
        {
          role: 'user',
          content: fillPrompt(loadPrompt('extract-topics'), {
            min: String(limits.min),
            max: String(limits.max),
            title: doc.title,
            summary: doc.summary ? `\nSummary: ${doc.summary}\n` : '',
            sections: outline,
          }),
        },
      ],
    },
    topicsSchema,
  );
  const seen = new Set<string>();
  const topics: TopicCandidate[] = [];
  for (const t of value.topics) {
    const key = t.name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    topics.push({ name: t.name, description: t.description, confidence: t.relevance });
  }
  return topics.slice(0, limits.max);
}

import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatModel, TokenUsage } from '#shared/llm/types.ts';
import { loadQaPrompt } from '../prompt.ts';
import { decompositionSchema, type SubQuery } from './types.ts';

/** Question words and particles: an affirmative sub-query leaves them out. */
const QUESTION_WORDS =
  /(请问|是什么|是多少|有哪些|有什么|为什么|怎么样|怎样|如何|怎么|多少|哪些|哪个|哪里|什么|是否|吗|呢)|\b(what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|should|please|tell me)\b/gi;
/** Clause boundaries that usually separate distinct asks. */
const CLAUSES =
  /[？?；;。!！]|，(?:以及|并且|还有|另外|同时)|以及|并且|, and |\band also\b|\band (?=(?:what|which|who|when|where|why|how)\b)/i;

/**
 * Question decomposition (docs/spec.md#decomposition) by the model (role `decompose`): 1 to `max`
 * affirmative sub-queries, each with a focus.
 */
export async function decomposeWithModel(
  chat: ChatModel,
  question: string,
  max: number,
): Promise<{ subqueries: SubQuery[]; usage: TokenUsage; model: string }> {
  const prompt = fillPrompt(loadQaPrompt('two-stage-decompose'), { question, max: String(max) });
  const result = await chat.structured(
    { role: 'decompose', messages: [{ role: 'user', content: prompt }] },
    decompositionSchema,
  );
  const subqueries = dedupe(result.value.subqueries.map((s) => ({ text: s.text, focus: s.focus || s.text })))
    .slice(0, max)
    .map((s, i) => ({ ...s, id: i + 1, stage: 1 as const }));
  return { subqueries, usage: result.usage, model: result.model };
}

/**
 * Offline decomposition: the question as an affirmative statement (question words and marks
 * removed), plus one statement per clause when it asks several things, at most `max`.
 *
 * @example decomposeOffline('云平台建设的预算是多少？团队由谁负责？', 5).map((s) => s.text)
 * // ['云平台建设的预算 团队由谁负责', '云平台建设的预算', '团队由谁负责']
 */
export function decomposeOffline(question: string, max: number): SubQuery[] {
  const clauses = question
    .split(CLAUSES)
    .map((c) => c?.trim() ?? '')
    .filter((c) => affirmative(c).length >= 2);
  const whole = affirmative(question);
  const items = clauses.length > 1 ? [whole, ...clauses.map(affirmative)] : [whole || question.trim()];
  return dedupe(
    items.map((text, i) => ({ text, focus: i === 0 ? 'the whole question' : (clauses[i - 1] ?? text) })),
  )
    .slice(0, max)
    .map((s, i) => ({ ...s, id: i + 1, stage: 1 as const }));
}

/** A question turned into a statement for search: question words and punctuation dropped. */
export function affirmative(text: string): string {
  return text
    .replace(QUESTION_WORDS, ' ')
    .replace(/[？?。!！，,；;：:"“”'‘’（）()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function dedupe<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.text.toLowerCase();
    if (!item.text || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

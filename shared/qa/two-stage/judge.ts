import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatModel, TokenUsage } from '#shared/llm/types.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { asksForQuantity, pickAnswerSentences, questionCoverage } from '#shared/text/answer.ts';
import { segment } from '#shared/text/segment.ts';
import { containsQuote } from '../citations.ts';
import { promptPassages } from '../model-steps.ts';
import { loadQaPrompt } from '../prompt.ts';
import type { Confidence } from '../response.ts';
import { judgmentSchema, type SubQuery, type SubQueryAnalysis } from './types.ts';

/**
 * The relevance judge (docs/spec.md#relevance-judge) for one sub-query, by the model (role
 * `judge`): verbatim extracts with their passage, a sub-answer, confidence and missing aspects. An
 * extract that is not found word for word in its passage is dropped: only verbatim text goes on to
 * the report.
 */
export async function judgeWithModel(
  chat: ChatModel,
  question: string,
  subquery: SubQuery,
  hits: SearchHit[],
): Promise<{ analysis: SubQueryAnalysis; dropped: number; usage: TokenUsage; model: string }> {
  if (hits.length === 0) {
    return {
      analysis: emptyAnalysis(subquery),
      dropped: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      model: '',
    };
  }
  const prompt = fillPrompt(loadQaPrompt('two-stage-judge'), {
    question,
    subquery: subquery.text,
    focus: subquery.focus,
    contexts: promptPassages(hits),
  });
  const result = await chat.structured(
    { role: 'judge', messages: [{ role: 'user', content: prompt }] },
    judgmentSchema,
  );
  const extracts = result.value.extracts.flatMap((e) => {
    const hit = hits[e.passage - 1];
    return hit && containsQuote(hit.content, e.text) ? [{ hit, text: e.text.trim() }] : [];
  });
  return {
    analysis: {
      subquery,
      answer: result.value.answer,
      extracts,
      confidence: extracts.length === 0 ? 'low' : result.value.confidence,
      missing: result.value.missing,
    },
    dropped: result.value.extracts.length - extracts.length,
    usage: result.usage,
    model: result.model,
  };
}

/**
 * The relevance judge without a model: the hits' sentences that best match the sub-query, verbatim
 * (the lines stating amounts favoured when the user's `question` asks how many or how much, which
 * its rewriting as a statement no longer says); confidence from the share of the sub-query's terms
 * they contain (high from 80%, medium from 50%); the terms they lack as missing aspects.
 */
export function judgeOffline(
  subquery: SubQuery,
  hits: SearchHit[],
  question = subquery.text,
): SubQueryAnalysis {
  const picked = pickAnswerSentences(
    subquery.text,
    hits.map((hit, i) => ({ content: hit.content, citation: i })),
    { maxSentences: 3, maxChars: 600, quantity: asksForQuantity(question) },
  );
  if (picked.length === 0) return emptyAnalysis(subquery);
  const texts = picked.map((p) => p.text);
  const coverage = questionCoverage(subquery.text, texts);
  const quoted = new Set(texts.flatMap((t) => segment(t)));
  const confidence: Confidence = coverage >= 0.8 ? 'high' : coverage >= 0.5 ? 'medium' : 'low';
  return {
    subquery,
    answer: texts.join(' '),
    extracts: picked.flatMap((p) => {
      const hit = hits[p.citation];
      return hit ? [{ hit, text: p.text }] : [];
    }),
    confidence,
    missing: [...new Set(segment(subquery.text))].filter((t) => t.length > 1 && !quoted.has(t)),
  };
}

function emptyAnalysis(subquery: SubQuery): SubQueryAnalysis {
  return { subquery, answer: '', extracts: [], confidence: 'low', missing: [subquery.focus] };
}

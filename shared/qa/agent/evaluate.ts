import type { SearchHit } from '#shared/search/types.ts';
import { pickAnswerSentences, questionCoverage } from '#shared/text/answer.ts';
import { segment } from '#shared/text/segment.ts';
import { answerContexts } from '../answer-contexts.ts';
import type { AgentState, Evaluation, StrategyHint, ToolOutcome } from './types.ts';

/** Below this cosine relevance a search's passages are weak, unless their text covers the question. */
export const LOW_RELEVANCE = 0.5;
/** Information density at which the gathered passages suffice (the offline judge's threshold). */
export const SUFFICIENT_DENSITY = 0.6;

/**
 * Evaluates a tool's result: searches returning nothing are `empty` (try another query); passages
 * whose best relevance is below 0.5 and whose text covers under half the question are
 * `low_relevance` (refine or explore); browse steps with content `deepened` the context; the
 * consistency check either found contradictions (resolve them) or says ready to answer.
 */
export function evaluateOutcome(
  tool: string,
  outcome: ToolOutcome,
  question: string,
  hits: SearchHit[],
): Evaluation {
  switch (outcome.kind) {
    case 'search': {
      if (outcome.found === 0) return { tool, quality: 'empty', suggestion: 'try_different_query' };
      const coverage = questionCoverage(
        question,
        hits.map((hit) => hit.content),
      );
      if ((outcome.bestRelevance ?? 0) < LOW_RELEVANCE && coverage < 0.5) {
        return { tool, quality: 'low_relevance', suggestion: 'refine_query_or_explore' };
      }
      return { tool, quality: 'good', improvement: 'expanded' };
    }
    case 'browse':
      return outcome.found > 0
        ? { tool, quality: 'good', improvement: 'deepened' }
        : { tool, quality: 'empty', suggestion: 'try_related_node' };
    case 'related':
      return outcome.found > 0
        ? { tool, quality: 'good', improvement: 'expanded' }
        : { tool, quality: 'empty', suggestion: 'try_different_query' };
    case 'analysis':
      if (outcome.contradictions !== undefined && outcome.contradictions > 0) {
        return { tool, quality: 'contradictions_found', suggestion: 'resolve_contradictions' };
      }
      return { tool, quality: 'consistent', suggestion: 'ready_to_answer' };
  }
}

/**
 * The information density of the evidence: the share of the question's content terms (words of two
 * or more characters that are not question words such as 哪些 or "what") that its best extract (the
 * sentences an extractive answer would quote) contains, 0..1.
 */
export function infoDensity(question: string, hits: SearchHit[]): number {
  const terms = contentTerms(question);
  if (hits.length === 0 || terms.length === 0) return 0;
  const quoted = pickAnswerSentences(question, answerContexts(hits), { maxSentences: 5, maxChars: 2000 });
  const words = new Set(quoted.flatMap((s) => segment(s.text)));
  return terms.filter((t) => words.has(t)).length / terms.length;
}

const QUESTION_WORD =
  /哪|什么|怎|如何|多少|为何|为什么|是否|吗|呢|^(?:what|which|who|whom|whose|when|where|why|how|does|did|the|and|are|was|were|is)$/;

/** The words of a question that carry content. */
export function contentTerms(question: string): string[] {
  return [...new Set(segment(question))].filter((t) => [...t].length >= 2 && !QUESTION_WORD.test(t));
}

/** The next strategy from the latest evaluation and the state (docs/spec.md#feedback). */
export function adaptiveStrategy(state: AgentState, evaluation: Evaluation): StrategyHint {
  switch (evaluation.suggestion) {
    case 'try_different_query':
      return { strategy: 'refine_query', hint: 'Try synonyms, related terms or another search kind.' };
    case 'refine_query_or_explore':
      return state.depthExplored < 2
        ? {
            strategy: 'explore_deeper',
            hint: 'Get more details around the best results (context window, node content).',
          }
        : { strategy: 'broaden_search', hint: 'Search with broader terms.' };
    case 'try_related_node':
      return { strategy: 'explore_deeper', hint: 'Try a neighbouring or parent node.' };
    case 'resolve_contradictions':
      return {
        strategy: 'verify_sources',
        hint: 'Check the original passages of the conflicting statements and explain the conflict.',
      };
    default:
      break;
  }
  if (state.infoDensity >= SUFFICIENT_DENSITY) {
    return {
      strategy: 'finalize',
      hint: 'Sufficient information gathered: verify consistency if several documents are involved, then answer.',
    };
  }
  return { strategy: 'continue' };
}

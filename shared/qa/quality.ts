import { reasonOf } from '#shared/errors.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { pickAnswerSentences, questionCoverage } from '#shared/text/answer.ts';
import { answerContexts, passageFrames } from './answer-contexts.ts';
import type { QaDeps } from './deps.ts';
import type { QaEvent } from './events.ts';
import { bridgeEntities, isMultiHop } from './hops.ts';
import { judgeRetrieval } from './model-steps.ts';
import type { TraceRecorder } from './trace.ts';

/** Offline, an extract containing this share of the question's terms answers it with medium confidence. */
export const OFFLINE_SUFFICIENT_COVERAGE = 0.6;

export interface QualityVerdict {
  sufficient: boolean;
  reason: string;
}

/**
 * The quality check (docs/spec.md#quality-check) on retrieved passages: none -> insufficient. With
 * a chat model: the best relevance below `search.relevanceThreshold` -> insufficient, else the
 * model's judgment (role `judge`; when it fails, the passages are taken as sufficient). Offline:
 * the share of the question's terms that the extractive answer would quote or that frame its quotes
 * (their section headings, document names and e-mail headers: `passageFrames`; hashing cosines are not
 * on the threshold's scale), and never enough for a multi-hop question whose quotes name the next
 * hop. Streams the finding as a trace observation.
 */
export async function* checkQuality(
  deps: QaDeps,
  question: string,
  hits: SearchHit[],
  trace: TraceRecorder,
): AsyncGenerator<QaEvent, QualityVerdict> {
  const verdict = (sufficient: boolean, reason: string): QualityVerdict => ({ sufficient, reason });
  if (hits.length === 0) {
    yield trace.observation('No passage matched the question.');
    return verdict(false, 'no_results');
  }
  const chat = deps.providers.chat;
  if (!chat) {
    const picked = pickAnswerSentences(question, answerContexts(hits));
    const quoted = picked.map((s) => s.text);
    // A quote is about its headings and its message's Subject too: a slide's one line under the
    // title "下一步" answers "下一步要招聘什么人？" though it repeats only 招聘.
    const frames = passageFrames(
      hits,
      picked.map((s) => s.citation),
    );
    const coverage = questionCoverage(question, [...quoted, ...frames]);
    const bridges = isMultiHop(question) ? bridgeEntities(question, quoted) : [];
    if (bridges.length > 0) {
      yield trace.observation(
        `The question asks for a second hop: the passages name ${bridges.join(', ')}, to be searched next.`,
      );
      return verdict(false, 'multi_hop');
    }
    const sufficient = coverage >= OFFLINE_SUFFICIENT_COVERAGE;
    yield trace.observation(
      `The quoted sentences contain ${Math.round(coverage * 100)}% of the question's terms${sufficient ? '' : '; that is not enough for a direct answer'}.`,
    );
    return verdict(sufficient, sufficient ? 'covered' : 'low_coverage');
  }
  const best = Math.max(0, ...hits.map((hit) => hit.relevance ?? 0));
  const threshold = deps.search.relevanceThreshold;
  if (best < threshold) {
    yield trace.observation(`The best passage's relevance ${best.toFixed(2)} is below ${threshold}.`);
    return verdict(false, 'low_relevance');
  }
  try {
    const judged = await judgeRetrieval(chat, question, hits);
    yield judged.usage;
    yield trace.observation(
      `${judged.sufficient ? 'The passages can answer the question' : 'The passages may not answer the question'}: ${judged.reason}`,
    );
    return verdict(judged.sufficient, judged.reason);
  } catch (error) {
    yield trace.observation(`Quality judgment unavailable: ${reasonOf(error)}`);
    return verdict(true, 'judgment_unavailable');
  }
}

import { identifyQuestionTopics } from '#shared/enrich/topics/identify.ts';
import type { QaDeps } from './deps.ts';

/**
 * The names of the topics the question is about (docs/spec.md#question-topics), best first; empty
 * when there are none or the lookup fails (topics inform the answer, they never block it).
 */
export async function questionTopicNames(deps: QaDeps, question: string): Promise<string[]> {
  try {
    const topics = await identifyQuestionTopics(deps.db, deps.access, deps.providers, question, { topK: 3 });
    return topics.map((t) => t.name);
  } catch {
    return [];
  }
}

import { z } from 'zod';
import type { Db } from '#shared/db/client.ts';
import { reasonOf } from '#shared/errors.ts';
import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatModel } from '#shared/llm/types.ts';
import { SECTION_CATEGORIES } from '#shared/parse/structure/category.ts';
import type { SearchFilters } from '#shared/search/types.ts';
import type { QaEvent } from '../events.ts';
import { loadQaPrompt } from '../prompt.ts';
import {
  findNamedDocument,
  type Route,
  type RouteCandidate,
  routeByRules,
  routeCandidates,
} from './route.ts';

/** The model's intent classification (docs/spec.md#routing). */
const intentSchema = z.object({
  intent: z.enum(['one_document', 'corpus']),
  document_keywords: z.array(z.string().trim().max(200)).max(10).default([]),
  section_categories: z.array(z.enum(SECTION_CATEGORIES)).max(SECTION_CATEGORIES.length).default([]),
  reason: z.string().max(500).default(''),
});
type Intent = z.infer<typeof intentSchema>;

export interface RoutedQuestion {
  route: Route;
  /** The `usage` event of the model's call, when it classified. */
  usage?: QaEvent;
  /** Why the model's classification was not used (the rules routed instead). */
  failure?: string;
}

/**
 * Intent routing (docs/spec.md#routing): with a chat model, the model classifies the question (role
 * `decompose`, structured output: one document or the corpus, the document's keywords, the section
 * categories), and the document is then located among the live ones by name; offline, or when the
 * model's call fails, the rules route (`routeByRules`). A request limited to one document, or a
 * question naming one, is routed there without asking.
 *
 * @example const { route } = await routeIntent(db, chat, 'What are the results in plan.docx?', {})
 */
export async function routeIntent(
  db: Db,
  chat: ChatModel | undefined,
  question: string,
  filters: SearchFilters,
): Promise<RoutedQuestion> {
  const candidates = await routeCandidates(db, filters);
  const byRules = routeByRules(question, candidates, filters);
  // A document the request is limited to, or that the question names, needs no model to find.
  if (!chat || byRules.scope === 'document') return { route: byRules };
  try {
    const result = await chat.structured(
      {
        role: 'decompose',
        messages: [{ role: 'user', content: fillPrompt(loadQaPrompt('agent-route'), { question }) }],
      },
      intentSchema,
    );
    return {
      route: routeOfIntent(result.value, candidates, question),
      usage: { type: 'usage', data: { stage: 'route', ...result.usage, model: result.model } },
    };
  } catch (error) {
    // Routing only narrows the search: whatever went wrong, the rules still give a route.
    return { route: byRules, failure: reasonOf(error) };
  }
}

/** The route the model's intent asks for, its document found by the keywords (or the question) naming it. */
function routeOfIntent(intent: Intent, candidates: RouteCandidate[], question: string): Route {
  const categories = intent.section_categories.filter((c) => c !== 'other');
  const why = intent.reason ? `: ${intent.reason}` : '';
  if (intent.intent === 'corpus')
    return { scope: 'corpus', categories, reason: `the model routes to the whole collection${why}` };
  const found =
    locate(candidates, intent.document_keywords) ?? findNamedDocument(candidates, question)?.candidate;
  if (!found) {
    return {
      scope: 'corpus',
      categories,
      reason: `the model looked for one document (${intent.document_keywords.join(', ') || 'no name given'}) that none matches`,
    };
  }
  return {
    scope: 'document',
    documentId: found.id,
    documentName: found.filename,
    categories,
    reason: `the model routes to one document${why}`,
  };
}

/** The document a keyword names (the keyword contains its name) or points into (its name contains the keyword). */
function locate(candidates: RouteCandidate[], keywords: string[]): RouteCandidate | undefined {
  for (const keyword of keywords) {
    const named = findNamedDocument(candidates, keyword);
    if (named) return named.candidate;
  }
  const wanted = keywords.map((k) => k.toLowerCase()).filter((k) => [...k].length >= 3);
  let best: { candidate: RouteCandidate; length: number } | undefined;
  for (const candidate of candidates) {
    const names = `${candidate.filename}\n${candidate.title ?? ''}`.toLowerCase();
    for (const keyword of wanted) {
      if (names.includes(keyword) && (!best || keyword.length > best.length))
        best = { candidate, length: keyword.length };
    }
  }
  return best?.candidate;
}

import { z } from 'zod';
import { SECTION_CATEGORIES } from '#shared/parse/structure/category.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import { keywordSearch } from '#shared/search/keyword.ts';
import { retrievePassages } from '#shared/search/passages.ts';
import { semanticSearch } from '#shared/search/semantic.ts';
import type { SearchFilters } from '#shared/search/types.ts';
import { gatherHits, narrowed } from './gather.ts';
import { defineTool } from './tool.ts';

const topK = (fallback: number) => z.number().int().min(1).max(20).default(fallback);
const documentId = z.uuid().optional().describe('Only search this document (an id from earlier results)');

/** Empty scope (a document outside the request's filters): nothing to search. */
function empty(filters: SearchFilters): boolean {
  return filters.documentIds !== undefined && filters.documentIds.length === 0;
}

export const keywordSearchTool = defineTool({
  name: 'keyword_search',
  description:
    'Exact, regular-expression or fuzzy keyword search over paragraph text and section titles. Use for names, project names, numbers (dates, amounts, versions) and exact terms.',
  input: z.object({
    keywords: z.array(z.string().min(1).max(200)).min(1).max(10).describe('Keywords to find'),
    mode: z.enum(['exact', 'regex', 'fuzzy']).default('exact'),
    case_sensitive: z.boolean().default(false),
    document_id: documentId,
  }),
  async run(ctx, input) {
    const filters = narrowed(ctx.state.context.filters, input.document_id);
    const hits = empty(filters)
      ? []
      : await keywordSearch(
          ctx.deps,
          { keywords: input.keywords, mode: input.mode, caseSensitive: input.case_sensitive },
          filters,
          10,
        );
    return gatherHits(ctx, hits, 'search', 'passage(s) matching the keywords');
  },
});

/** A tool that runs one query-text search (`search`) in the request's scope, narrowed to a document. */
function queryTool(options: {
  name: string;
  description: string;
  topK: number;
  search: typeof fulltextSearch;
  found: string;
}) {
  return defineTool({
    name: options.name,
    description: options.description,
    input: z.object({
      query: z.string().min(1).max(500),
      top_k: topK(options.topK),
      document_id: documentId,
    }),
    async run(ctx, input) {
      const filters = narrowed(ctx.state.context.filters, input.document_id);
      const hits = empty(filters) ? [] : await options.search(ctx.deps, input.query, filters, input.top_k);
      return gatherHits(ctx, hits, 'search', options.found);
    },
  });
}

export const fulltextSearchTool = queryTool({
  name: 'fulltext_search',
  description:
    'BM25 full-text search: balances precision and recall for queries of several related words (topics, "risks and mitigations").',
  topK: 8,
  search: fulltextSearch,
  found: 'passage(s) by full-text rank',
});

export const semanticSearchTool = queryTool({
  name: 'semantic_search',
  description:
    'Vector similarity search: for colloquial or abstract questions whose words may differ from the documents (synonyms, other languages).',
  topK: 5,
  search: semanticSearch,
  found: 'semantically similar passage(s)',
});

export const sectionSearchTool = defineTool({
  name: 'search_by_section',
  description:
    'Hybrid search inside sections of given categories (abstract, introduction, method, evaluation, conclusion, related_work, other), optionally in one document: method for "how does X work", evaluation for results and numbers, introduction for background. Related-work sections describe OTHER work.',
  input: z.object({
    query: z.string().min(1).max(500),
    categories: z.array(z.enum(SECTION_CATEGORIES)).min(1).max(7),
    document_id: documentId,
    top_k: topK(5),
  }),
  async run(ctx, input) {
    const filters = narrowed(ctx.state.context.filters, input.document_id, input.categories);
    const hits = empty(filters) ? [] : await retrievePassages(ctx.deps, input.query, filters, input.top_k);
    return gatherHits(ctx, hits, 'search', `passage(s) in ${input.categories.join('/')} sections`);
  },
});

import { hasCjk, segment } from '#shared/index/segment.ts';
import { SUFFICIENT_DENSITY } from './evaluate.ts';
import { isMultiHop } from './follow-ups.ts';
import type { PlannedCall, PlannedStep, Planner } from './planner.ts';
import { FINAL_ANSWER } from './tools/index.ts';
import type { AgentState } from './types.ts';

const SEARCHES = new Set(['keyword_search', 'fulltext_search', 'semantic_search', 'search_by_section']);

/** Exact terms worth a keyword search: quoted phrases, numbers, acronyms and capitalized names. */
export function exactTerms(question: string): string[] {
  const quoted = [...question.matchAll(/[“"「『]([^”"」』]{1,60})[”"」』]/g)].map((m) => m[1] ?? '');
  const numbers = question.match(/\d+(?:[.,]\d+)*%?/g) ?? [];
  const names = (
    question.match(/\b[A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*\b|\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)+\b/g) ?? []
  ).filter((w) => w.length >= 2);
  return [...new Set([...quoted, ...numbers, ...names].map((t) => t.trim()).filter(Boolean))].slice(0, 6);
}

/**
 * The offline stand-in for the model's planning (strategy selection, deterministic:
 * docs/spec.md#planners): a document-scoped search when the question names one document; else
 * keyword search for exact terms, full-text search otherwise; semantic search when results are
 * empty or weak; a keyword search for the next hop of a multi-hop question; a context window around
 * the best passage when exploring deeper; a consistency check when passages come from several
 * documents; then the final answer (synthesized extractively by the loop). Never repeats a call.
 */
export class OfflinePlanner implements Planner {
  private turn = 0;

  async next(state: AgentState): Promise<PlannedStep> {
    this.turn += 1;
    const zh = hasCjk(state.context.question);
    const plan = this.decide(state);
    return {
      thought: zh ? plan.thoughtZh : plan.thought,
      calls: [{ id: `offline-${this.turn}`, ...plan.call }],
    };
  }

  record(): void {}

  private decide(state: AgentState): { thought: string; thoughtZh: string; call: Omit<PlannedCall, 'id'> } {
    const q = state.context.question;
    const fresh = (name: string, input: unknown) => !state.calls.includes(signature(name, input));
    const searched = state.calls.some((c) => SEARCHES.has(c.slice(0, c.indexOf('('))));
    const last = state.evaluations.at(-1);
    const { route } = state.context;

    if (!searched && route.scope === 'document' && route.documentId) {
      const input = route.categories.length
        ? { query: q, categories: route.categories, document_id: route.documentId, top_k: 5 }
        : { query: q, document_id: route.documentId, top_k: 8 };
      return {
        thought: `The question is about one document (${route.documentName}); search inside it first.`,
        thoughtZh: `问题针对单个文档（${route.documentName}），先在该文档内检索。`,
        call: { name: route.categories.length ? 'search_by_section' : 'fulltext_search', input },
      };
    }
    if (!searched) {
      const terms = exactTerms(q);
      if (terms.length > 0) {
        return {
          thought: `The question names exact terms (${terms.join(', ')}); search for them verbatim.`,
          thoughtZh: `问题包含具体名称或数字（${terms.join('、')}），先做关键词精确搜索。`,
          call: { name: 'keyword_search', input: { keywords: terms, mode: 'exact' } },
        };
      }
      return {
        thought: 'Start with a full-text search for the question.',
        thoughtZh: '先用全文检索查找与问题相关的段落。',
        call: { name: 'fulltext_search', input: { query: q, top_k: 8 } },
      };
    }
    if (
      (last?.quality === 'empty' || last?.quality === 'low_relevance') &&
      fresh('semantic_search', { query: q, top_k: 5 })
    ) {
      return {
        thought: 'The last search found little; documents may word it differently, so try a semantic search.',
        thoughtZh: '上一次检索结果不佳，文档可能使用了不同的表述，改用语义检索。',
        call: { name: 'semantic_search', input: { query: q, top_k: 5 } },
      };
    }
    const hop = { keywords: state.followUps, mode: 'exact' };
    if (isMultiHop(q) && state.followUps.length > 0 && fresh('keyword_search', hop)) {
      return {
        thought: `The question needs a second hop: search for ${state.followUps.join(', ')} across the documents.`,
        thoughtZh: `这是多跳问题：用找到的线索（${state.followUps.join('、')}）在所有文档中继续搜索。`,
        call: { name: 'keyword_search', input: hop },
      };
    }
    if (state.infoDensity < SUFFICIENT_DENSITY) {
      const broad = { query: [...new Set(segment(q))].join(' '), top_k: 8 };
      if (fresh('semantic_search', { query: q, top_k: 5 })) {
        return {
          thought: 'Not enough yet: look for differently worded passages with a semantic search.',
          thoughtZh: '信息还不充分，用语义检索寻找表述不同的段落。',
          call: { name: 'semantic_search', input: { query: q, top_k: 5 } },
        };
      }
      if (broad.query && fresh('fulltext_search', broad)) {
        return {
          thought: 'Still not enough: broaden the full-text search to the question’s separate terms.',
          thoughtZh: '信息仍不充分，用问题中的各个词扩大全文检索。',
          call: { name: 'fulltext_search', input: broad },
        };
      }
    }
    const top = state.evidence.hits[0];
    const window = top ? { node_id: top.nodeId, window: 1 } : undefined;
    if (window && state.depthExplored < 1 && fresh('get_context_window', window)) {
      return {
        thought: 'Read the passages around the best result, in case it is cut off.',
        thoughtZh: '查看最佳结果前后的段落，补全上下文。',
        call: { name: 'get_context_window', input: window },
      };
    }
    if (state.evidence.documentIds().length >= 2 && !state.consistencyChecked) {
      return {
        thought: 'Passages come from several documents: check that they do not contradict each other.',
        thoughtZh: '信息来自多个文档，先检查它们之间是否存在矛盾。',
        call: { name: 'verify_consistency', input: {} },
      };
    }
    return {
      thought: 'Answer from the passages gathered.',
      thoughtZh: '根据已收集的段落作答。',
      call: { name: FINAL_ANSWER, input: undefined },
    };
  }
}

/** How a call is remembered: `name(json input)`. */
export function signature(name: string, input: unknown): string {
  return `${name}(${JSON.stringify(input ?? {})})`;
}

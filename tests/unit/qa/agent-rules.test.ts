import { describe, expect, it } from 'vitest';
import { findNumericContradictions } from '#shared/qa/agent/consistency.ts';
import { adaptiveStrategy, evaluateOutcome, infoDensity } from '#shared/qa/agent/evaluate.ts';
import { followUpTerms, isMultiHop } from '#shared/qa/agent/follow-ups.ts';
import { exactTerms } from '#shared/qa/agent/offline-planner.ts';
import type { AgentState, ToolOutcome } from '#shared/qa/agent/types.ts';
import type { SearchHit } from '#shared/search/types.ts';

function hit(content: string, documentId = 'd1'): SearchHit {
  return {
    nodeId: `n-${content.length}-${documentId}`,
    documentId,
    documentName: `${documentId}.md`,
    documentKey: `uploads/${documentId}.md`,
    version: 1,
    nodeType: 'paragraph',
    content,
    sectionPath: [],
    path: `${documentId}.md`,
    breadcrumb: [],
    score: 1,
    ordinal: 1,
    metadata: {},
  };
}

const outcome = (o: Partial<ToolOutcome>): ToolOutcome => ({
  kind: 'search',
  observation: '',
  summary: '',
  found: 0,
  added: 0,
  ...o,
});

describe('evaluateOutcome', () => {
  it('rates an empty search as empty and suggests another query', () => {
    expect(evaluateOutcome('fulltext_search', outcome({ found: 0 }), 'budget', [])).toMatchObject({
      quality: 'empty',
      suggestion: 'try_different_query',
    });
  });

  it('rates weak passages that miss the question as low relevance', () => {
    const e = evaluateOutcome(
      'semantic_search',
      outcome({ found: 1, bestRelevance: 0.2 }),
      'project budget',
      [hit('The team meets on Mondays.')],
    );
    expect(e).toMatchObject({ quality: 'low_relevance', suggestion: 'refine_query_or_explore' });
  });

  it('rates passages covering the question as good even without a cosine relevance', () => {
    const e = evaluateOutcome('keyword_search', outcome({ found: 1 }), 'project budget', [
      hit('The project budget is 2 million.'),
    ]);
    expect(e).toMatchObject({ quality: 'good', improvement: 'expanded' });
  });

  it('asks to resolve contradictions found by the consistency check', () => {
    const e = evaluateOutcome(
      'verify_consistency',
      outcome({ kind: 'analysis', contradictions: 1, found: 1 }),
      'q',
      [],
    );
    expect(e.suggestion).toBe('resolve_contradictions');
  });
});

describe('adaptiveStrategy', () => {
  const state = (o: Partial<AgentState>) => ({ depthExplored: 0, infoDensity: 0, ...o }) as AgentState;

  it('explores deeper first, then broadens, on weak results', () => {
    const weak = { tool: 'x', quality: 'low_relevance', suggestion: 'refine_query_or_explore' } as const;
    expect(adaptiveStrategy(state({ depthExplored: 0 }), weak).strategy).toBe('explore_deeper');
    expect(adaptiveStrategy(state({ depthExplored: 2 }), weak).strategy).toBe('broaden_search');
  });

  it('finalizes once the information density suffices', () => {
    expect(adaptiveStrategy(state({ infoDensity: 0.8 }), { tool: 'x', quality: 'good' }).strategy).toBe(
      'finalize',
    );
    expect(adaptiveStrategy(state({ infoDensity: 0.2 }), { tool: 'x', quality: 'good' }).strategy).toBe(
      'continue',
    );
  });
});

describe('infoDensity', () => {
  it('is the share of the question content terms found in the best extract', () => {
    expect(infoDensity('项目预算是多少？', [hit('项目预算为500万元。')])).toBe(1);
    expect(infoDensity('项目预算是多少？', [])).toBe(0);
  });
});

describe('followUpTerms', () => {
  it('takes the value named after a colon in the best sentence (the next hop)', () => {
    expect(
      followUpTerms('A项目负责人还负责过哪些项目？', [hit('A项目的项目负责人：张三，负责整体规划。')]),
    ).toEqual(['张三']);
  });

  it('recognises questions that need another hop', () => {
    expect(isMultiHop('A项目负责人还负责过哪些项目？')).toBe(true);
    expect(isMultiHop('What other projects did she lead?')).toBe(true);
    expect(isMultiHop('项目预算是多少？')).toBe(false);
  });
});

describe('exactTerms', () => {
  it('keeps quoted phrases, numbers and capitalized names', () => {
    expect(exactTerms('What did “Project Apollo” spend in 2024 on the API?')).toEqual([
      'Project Apollo',
      '2024',
      'API',
    ]);
  });
});

describe('findNumericContradictions', () => {
  it('finds two documents stating different numbers about the same thing', () => {
    const found = findNumericContradictions([
      { text: 'A项目的云平台预算为500万元。', citation: 1, documentId: 'a' },
      { text: 'A项目的云平台预算为300万元。', citation: 2, documentId: 'b' },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]?.citations).toEqual([1, 2]);
  });

  it('ignores statements of the same document and statements sharing a number', () => {
    expect(
      findNumericContradictions([
        { text: '预算为500万元。', citation: 1, documentId: 'a' },
        { text: '预算为300万元。', citation: 2, documentId: 'a' },
        { text: '云平台预算为500万元，已执行。', citation: 3, documentId: 'b' },
      ]),
    ).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { offlineReport } from '#shared/qa/two-stage/report.ts';
import type { SubQueryAnalysis } from '#shared/qa/two-stage/types.ts';
import type { SearchHit } from '#shared/search/types.ts';

const hit = (documentName: string, content: string) =>
  ({
    nodeId: documentName,
    documentId: documentName,
    documentName,
    content,
    metadata: {},
  }) as unknown as SearchHit;

const analysis = (text: string, hits: SearchHit[]): SubQueryAnalysis => ({
  subquery: { id: 1, text, focus: text, stage: 1 },
  answer: hits.map((h) => h.content).join(' '),
  extracts: hits.map((h) => ({ hit: h, text: h.content })),
  confidence: 'medium',
  missing: [],
});

describe("document names in an offline report, in the answer's language", () => {
  it('puts an English answer’s file names in quotation marks, never 《》', () => {
    const plan = hit('plan.md', 'The budget is 5 million euros.');
    const report = offlineReport('What is the budget?', [analysis('the budget', [plan])], [plan]);
    expect(report).toContain('1. "plan.md" “The budget is 5 million euros.” [1]');
    expect(report).not.toMatch(/[《》]/u);
  });

  it('keeps 《》 around the file names of a Chinese answer', () => {
    const plan = hit('规划.md', '全年预算为500万元。');
    const report = offlineReport('预算是多少？', [analysis('预算', [plan])], [plan]);
    expect(report).toContain('1. 《规划.md》 “全年预算为500万元。” [1]');
  });
});

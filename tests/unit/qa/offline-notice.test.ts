import { describe, expect, it } from 'vitest';
import { offlineSynthesis } from '#shared/qa/documents/stage2.ts';
import { offlineReport } from '#shared/qa/two-stage/report.ts';
import { extractiveAnswer } from '#shared/text/answer.ts';

const firstLine = (text: string) => text.split('\n')[0];

describe('the offline notice: one wording across answer modes', () => {
  it('leads the direct and the documents answer with the same notice, in each language', () => {
    for (const [question, content] of [
      ['Who leads the Orion project?', 'Maria Chen leads the Orion project.'],
      ['猎户座项目由谁负责？', '猎户座项目由陈玛丽负责。'],
    ] as const) {
      const direct = extractiveAnswer(question, [{ content, citation: 1 }]).text;
      const documents = offlineSynthesis(question, [
        { documentId: 'd1', name: 'orion.md', quoted: [{ ref: 'P1', text: content }] } as never,
      ]);
      expect(documents).toContain(content);
      expect(firstLine(documents)).toBe(firstLine(direct));
    }
  });

  it('says the same when nothing answers, in the direct, documents and two-stage answer', () => {
    const question = 'Who leads the Orion project?';
    const direct = extractiveAnswer(question, []).text;
    expect(direct).toBe('Offline extractive answer: no passage in your documents answers this question.');
    expect(offlineSynthesis(question, [])).toBe(direct);
    expect(offlineReport(question, [], [])).toBe(direct);
  });
});

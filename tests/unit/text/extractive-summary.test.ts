import { describe, expect, it } from 'vitest';
import { extractiveSummary } from '#shared/text/extractive-summary.ts';
import { splitSentences } from '#shared/text/sentences.ts';

const ZH = [
  '本项目的目标是建设统一的数据平台。',
  '数据平台将整合销售、库存和财务数据。今天天气不错。',
  '平台上线后，数据分析效率预计提升一倍。',
];
const EN = [
  'The budget grew by ten percent this year. Most of the budget pays for the cloud migration.',
  'Lunch was served at noon. The migration budget is reviewed every quarter.',
];

describe('extractiveSummary', () => {
  it('quotes only whole sentences of the source', () => {
    const source = new Set([...ZH, ...EN].flatMap(splitSentences));
    for (const texts of [ZH, EN]) {
      const summary = extractiveSummary({ texts, maxSentences: 2, maxChars: 200 });
      const picked = splitSentences(summary);
      expect(picked.length).toBeGreaterThan(0);
      for (const sentence of picked) expect(source.has(sentence)).toBe(true);
    }
  });

  it('prefers sentences central to the text over asides', () => {
    const summary = extractiveSummary({ title: '数据平台', texts: ZH, maxSentences: 2, maxChars: 200 });
    expect(summary).not.toContain('天气');
    expect(summary).toContain('数据平台');
    const english = extractiveSummary({ title: 'Budget', texts: EN, maxSentences: 2, maxChars: 300 });
    expect(english).not.toContain('Lunch');
  });

  it('keeps the picked sentences in their original order', () => {
    const summary = extractiveSummary({ texts: ZH, maxSentences: 3, maxChars: 500 });
    const positions = splitSentences(summary).map((s) => ZH.join('').indexOf(s));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('respects the sentence and character limits', () => {
    expect(splitSentences(extractiveSummary({ texts: ZH, maxSentences: 1, maxChars: 500 }))).toHaveLength(1);
    const short = extractiveSummary({ texts: EN, maxSentences: 5, maxChars: 60 });
    expect(short.length).toBeLessThanOrEqual(60);
  });

  it('cuts the best sentence with an ellipsis when no sentence fits', () => {
    const long = 'This single sentence about the data platform is much longer than the limit allows';
    const summary = extractiveSummary({ texts: [long], maxSentences: 2, maxChars: 30 });
    expect(summary.endsWith('…')).toBe(true);
    expect([...summary].length).toBeLessThanOrEqual(30);
    expect(long.startsWith(summary.slice(0, -1))).toBe(true);
  });

  it('is deterministic', () => {
    const a = extractiveSummary({ title: 'x', texts: [...EN, ...ZH], maxSentences: 3, maxChars: 300 });
    const b = extractiveSummary({ title: 'x', texts: [...EN, ...ZH], maxSentences: 3, maxChars: 300 });
    expect(a).toBe(b);
  });

  it('returns an empty string when there is no text', () => {
    expect(extractiveSummary({ texts: ['', '  '], maxSentences: 2, maxChars: 200 })).toBe('');
  });
});

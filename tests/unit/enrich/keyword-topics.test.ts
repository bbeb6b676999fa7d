import { describe, expect, it } from 'vitest';
import { isKeywordCandidate, keywordTopics, type WeightedText } from '#shared/llm/offline/topics.ts';

const DOC: WeightedText[] = [
  { text: 'Kubernetes migration plan', weight: 3 },
  { text: 'Cluster budget', weight: 2 },
  { text: 'The kubernetes cluster runs the billing service. Kubernetes upgrades happen monthly.', weight: 1 },
  { text: 'The budget for the cluster grows by ten percent. Billing stays flat.', weight: 1 },
];

describe('keywordTopics', () => {
  it('ranks the words the document repeats, titles counting more', () => {
    const topics = keywordTopics(DOC, { max: 3, corpusSize: 1, documentFrequency: () => 0 });
    expect(topics.map((t) => t.name)).toEqual(['kubernetes', 'cluster', 'migration']);
    expect(topics[0]?.confidence).toBe(1);
    expect(topics[2]?.confidence).toBeLessThan(1);
  });

  it('demotes words most documents of the corpus contain', () => {
    const df = new Map([['kubernetes', 9]]);
    const topics = keywordTopics(DOC, { max: 3, corpusSize: 10, documentFrequency: (t) => df.get(t) ?? 0 });
    expect(topics.map((t) => t.name)).not.toContain('kubernetes');
  });

  it('describes a topic with a sentence of the document that uses it', () => {
    const [top] = keywordTopics(DOC, { max: 1, corpusSize: 1, documentFrequency: () => 0 });
    expect(top?.description).toBe('Kubernetes migration plan');
  });

  it('keeps one of two overlapping Chinese keywords', () => {
    // jieba's search mode yields 人工, 智能 and 人工智能 for each occurrence.
    const texts = [{ text: '人工智能的应用。人工智能模型的训练。模型评估。', weight: 1 }];
    const names = keywordTopics(texts, { max: 5, corpusSize: 1, documentFrequency: () => 0 }).map(
      (t) => t.name,
    );
    expect(names.filter((n) => '人工智能'.includes(n))).toHaveLength(1);
    expect(names).toContain('模型');
  });

  it('gives the same topics for the same input', () => {
    const options = { max: 5, corpusSize: 3, documentFrequency: () => 1 };
    expect(keywordTopics(DOC, options)).toEqual(keywordTopics(DOC, options));
  });

  it('takes CJK words of two characters and Latin words of three letters or more', () => {
    expect(isKeywordCandidate('预算')).toBe(true);
    expect(isKeywordCandidate('云')).toBe(false);
    expect(isKeywordCandidate('api')).toBe(true);
    expect(isKeywordCandidate('go')).toBe(false);
    expect(isKeywordCandidate('2024')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeTree } from '#shared/enrich/structure/normalize.ts';
import type { Embedder } from '#shared/llm/types.ts';
import type { ParagraphNode } from '#shared/parse/types.ts';
import { countingEmbedder, DATABASE, doc, GARDEN, OPTIONS, para } from './structure-fixtures.ts';

const SIZES = { ...OPTIONS, maxParagraphChars: 200, paragraphTargetChars: 100, maxSectionChars: 100_000 };

/** Sentences mentioning "beta" point one way, all others another: similarity is 0 across, 1 within. */
const twoTopics: Embedder = {
  model: 'two-topics',
  dimensions: 2,
  embed: async (texts) => texts.map((text) => (text.includes('beta') ? [0, 1] : [1, 0])),
};

function texts(nodes: readonly { type: string }[]): string[] {
  return nodes.map((node) => (node as ParagraphNode).text);
}

describe('normalizeTree paragraph splitting', () => {
  it('cuts at the topic shift inside 0.8-1.2x the target, not at the first sentence end there', async () => {
    // Sentences of 30 characters: ends at 30, 60, 90, 120 ... The window 80-120 holds the ends after
    // sentences 3 and 4; the topic changes after sentence 4. The rest (90) is under 1.2x: whole.
    const alpha = 'Alpha sentence number one ok. ';
    const beta = 'Beta: a beta sentence here ok. ';
    const text = (alpha.repeat(4) + beta.repeat(3)).trim();
    const out = await normalizeTree(doc(para(text)), { embedder: twoTopics }, SIZES);
    expect(texts(out.children)).toEqual([alpha.repeat(4).trim(), beta.repeat(3).trim()]);
  });

  it('takes the first sentence end of the window when no topic shift tells them apart', async () => {
    const alpha = 'Alpha sentence number one ok. ';
    const out = await normalizeTree(doc(para(alpha.repeat(8).trim())), { embedder: twoTopics }, SIZES);
    expect(texts(out.children)).toEqual([
      alpha.repeat(3).trim(),
      alpha.repeat(3).trim(),
      alpha.repeat(2).trim(),
    ]);
  });

  it('finds the topic shift with the offline embedder', async () => {
    // Ends near 28, 57, 85, 113 (the shift), 147: the window 80-120 holds two ends before the shift.
    const garden = [
      'Tomatoes love the garden sun.',
      'Garden tomatoes need water.',
      'Prune the garden tomatoes.',
      'Garden tomatoes ripen late.',
    ].join(' ');
    const database = [
      'Postgres stores each invoice.',
      'Invoice queries use an index.',
      'Backups copy every invoice.',
      'Old invoices are archived.',
    ].join(' ');
    const out = await normalizeTree(
      doc(para(`${garden} ${database}`)),
      { embedder: countingEmbedder() },
      SIZES,
    );
    expect(texts(out.children)).toEqual([garden, database]);
  });

  it('embeds the sentences of every long paragraph in one batched call', async () => {
    const embedder = countingEmbedder();
    const long = (list: string[]) => para(list.join(' ').repeat(2));
    const out = await normalizeTree(doc(long(GARDEN), long(DATABASE), para('Short.')), { embedder }, SIZES);
    expect(embedder.calls).toBe(1);
    expect(out.children.length).toBeGreaterThan(3);
    for (const node of out.children) expect((node as ParagraphNode).text.length).toBeLessThanOrEqual(200);
  });

  it('falls back to length cuts for one sentence longer than the maximum', async () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const out = await normalizeTree(doc(para(words)), { embedder: twoTopics }, SIZES);
    const pieces = texts(out.children);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join(' ')).toBe(words);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(200);
  });

  it('splits by length with a warning when the embedder fails', async () => {
    const failing: Embedder = {
      model: 'down',
      dimensions: 2,
      embed: async () => {
        throw new Error('throttled for good');
      },
    };
    const alpha = 'Alpha sentence number one ok. ';
    const out = await normalizeTree(doc(para(alpha.repeat(8).trim())), { embedder: failing }, SIZES);
    expect(texts(out.children)).toEqual([
      alpha.repeat(3).trim(),
      alpha.repeat(3).trim(),
      alpha.repeat(2).trim(),
    ]);
    expect(out.warnings).toEqual(['structure by length only, the embedder failed: throttled for good']);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeTree as normalize } from '#shared/enrich/structure/normalize.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import { splitText } from '#shared/parse/split-text.ts';
import type { ParagraphNode, ParsedDocument, TreeNode } from '#shared/parse/types.ts';

const LIMITS = {
  maxParagraphChars: 200,
  paragraphTargetChars: 100,
  maxSectionChars: 100_000,
  maxFlatSections: 20,
  enrichTitles: true,
};
const providers = { embedder: new HashingEmbedder({ dimensions: 256 }) };
const normalizeTree = (input: ParsedDocument, limits: typeof LIMITS) => normalize(input, providers, limits);

function doc(children: TreeNode[]): ParsedDocument {
  return { title: 't', metadata: {}, children, images: [], warnings: [] };
}

function texts(nodes: TreeNode[]): string[] {
  return nodes.map((node) => (node.type === 'paragraph' || node.type === 'table' ? node.text : node.type));
}

describe('normalizeTree', () => {
  it('splits a long paragraph at sentence ends into pieces near the target', async () => {
    const sentence = 'The budget covers the migration of core services. ';
    const text = sentence.repeat(10).trim(); // ~500 characters, 10 sentences
    const out = await normalizeTree(doc([{ type: 'paragraph', text }]), LIMITS);
    const pieces = texts(out.children);
    expect(pieces.length).toBe(5);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(LIMITS.maxParagraphChars);
      expect(piece.endsWith('services.')).toBe(true);
    }
    expect(pieces.join(' ')).toBe(text);
  });

  it('splits Chinese text at sentence ends, wording unchanged', async () => {
    const text = '预计投入五百万预算用于容器化改造，覆盖核心业务系统。'.repeat(12);
    const out = await normalizeTree(doc([{ type: 'paragraph', text }]), LIMITS);
    const pieces = texts(out.children);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) {
      expect(piece.endsWith('。')).toBe(true);
      expect(piece.length).toBeLessThanOrEqual(LIMITS.maxParagraphChars);
    }
  });

  it('keeps the metadata of a split paragraph on each piece', async () => {
    const text = 'One sentence here. '.repeat(30).trim();
    const out = await normalizeTree(doc([{ type: 'paragraph', text, metadata: { page: 3 } }]), LIMITS);
    expect(out.children.every((node) => (node as ParagraphNode).metadata?.page === 3)).toBe(true);
  });

  it('never splits code blocks or tables', async () => {
    const code = 'x = 1. y = 2. '.repeat(50);
    const table = `| a |\n|---|\n${'| cell. |\n'.repeat(60)}`;
    const input = doc([
      { type: 'paragraph', text: code, metadata: { kind: 'code', lang: 'py' } },
      { type: 'table', text: table, rows: [] },
    ]);
    expect((await normalizeTree(input, LIMITS)).children).toEqual(input.children);
  });

  it('removes empty paragraphs and untitled empty sections, keeps titled empty ones', async () => {
    const out = await normalizeTree(
      doc([
        { type: 'paragraph', text: '  \n ' },
        { type: 'section', title: '', children: [{ type: 'paragraph', text: '' }] },
        { type: 'section', title: 'Kept', children: [] },
        { type: 'section', title: '', children: [{ type: 'paragraph', text: 'stays' }] },
      ]),
      LIMITS,
    );
    expect(out.children).toEqual([
      { type: 'section', title: 'Kept', children: [] },
      { type: 'section', title: '', children: [{ type: 'paragraph', text: 'stays' }] },
    ]);
  });

  it('normalizes inside nested sections and leaves the input untouched', async () => {
    const long = 'Sentence number one is here. '.repeat(20).trim();
    const input = doc([
      {
        type: 'section',
        title: 'A',
        children: [{ type: 'section', title: 'B', children: [{ type: 'paragraph', text: long }] }],
      },
    ]);
    const before = JSON.stringify(input);
    const out = await normalizeTree(input, LIMITS);
    const inner = out.children[0]?.type === 'section' ? out.children[0].children[0] : undefined;
    expect(inner?.type === 'section' && inner.children.length).toBeGreaterThan(1);
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe('splitText', () => {
  it('returns short text whole', async () => {
    expect(splitText('short.', 100, 200)).toEqual(['short.']);
  });

  it('cuts one huge sentence at whitespace', async () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const pieces = splitText(words, 100, 200);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join(' ')).toBe(words);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(200);
  });

  it('cuts an unbroken run hard as a last resort, without losing characters', async () => {
    const run = 'x'.repeat(450);
    const pieces = splitText(run, 100, 200);
    expect(pieces.join('')).toBe(run);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(200);
  });

  it('does not cut a surrogate pair in half', async () => {
    const run = '😀'.repeat(150); // 300 UTF-16 units
    const pieces = splitText(run, 101, 200);
    expect(pieces.join('')).toBe(run);
    for (const piece of pieces) expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it('prefers a clause mark over a hard cut in Chinese without sentence ends', async () => {
    const text = `${'甲'.repeat(150)}，${'乙'.repeat(150)}`;
    expect(splitText(text, 100, 200)).toEqual([`${'甲'.repeat(150)}，`, '乙'.repeat(150)]);
  });
});

import { describe, expect, it } from 'vitest';
import { buildDocumentContent } from '#shared/qa/documents/content.ts';
import { LruCache } from '#shared/qa/documents/lru.ts';
import { extractMarkers, shortDocId, splitIntoBlocks } from '#shared/qa/documents/markers.ts';
import { resolveReferences } from '#shared/qa/documents/references.ts';
import type { Stage1Result } from '#shared/qa/documents/stage1.ts';

const ID = '3f2a9c1e-0000-4000-8000-000000000000';
const MD =
  '# 标题\n正文第一段，\n接着一行。\n\n![架构图](img_001.png)\n\n```\ncode\n\nmore\n```\n\n## 小节\n\n第二段。\n';

describe('splitIntoBlocks', () => {
  it('marks paragraphs and images separately, headings on their own, fences whole', () => {
    const blocks = splitIntoBlocks(MD, shortDocId(ID));
    expect(blocks.map((b) => b.ref)).toEqual([
      'DOC-3f2a9c1e-PARA-1',
      'DOC-3f2a9c1e-PARA-2',
      'DOC-3f2a9c1e-IMAGE-1',
      'DOC-3f2a9c1e-PARA-3',
      'DOC-3f2a9c1e-PARA-4',
      'DOC-3f2a9c1e-PARA-5',
    ]);
    expect(blocks[1]).toMatchObject({ kind: 'text', text: '正文第一段，\n接着一行。' });
    expect(blocks[2]).toMatchObject({ kind: 'image', filename: 'img_001.png', alt: '架构图' });
    expect(blocks[3]).toMatchObject({ text: '```\ncode\n\nmore\n```' });
  });
});

describe('extractMarkers', () => {
  it('keeps each marker once, in order of first use, also inside bracket lists', () => {
    const answer =
      '见 [DOC-3f2a9c1e-PARA-2]，又见 [DOC-3f2a9c1e-IMAGE-1, DOC-aaaaaaaa-PARA-7] 与 [DOC-3f2a9c1e-PARA-2]。[DOC-XYZ-PARA-1]';
    expect(extractMarkers(answer)).toEqual([
      'DOC-3f2a9c1e-PARA-2',
      'DOC-3f2a9c1e-IMAGE-1',
      'DOC-aaaaaaaa-PARA-7',
    ]);
  });
});

describe('resolveReferences', () => {
  it('gives text its paragraph, images their URL, and sets invented markers apart', () => {
    const doc: Stage1Result = {
      documentId: ID,
      name: '规划.md',
      version: 2,
      shortId: '3f2a9c1e',
      blocks: splitIntoBlocks(MD, '3f2a9c1e'),
      reply: '',
      quoted: [],
    };
    const { references, unknown } = resolveReferences(
      ['DOC-3f2a9c1e-IMAGE-1', 'DOC-3f2a9c1e-PARA-5', 'DOC-3f2a9c1e-PARA-99'],
      [doc],
    );
    expect(references).toEqual([
      {
        ref_id: 'DOC-3f2a9c1e-IMAGE-1',
        doc_id: ID,
        doc_name: '规划.md',
        version: 2,
        chunk_type: 'image',
        image_url: `/api/v1/documents/${ID}/images/img_001.png?version=2`,
      },
      {
        ref_id: 'DOC-3f2a9c1e-PARA-5',
        doc_id: ID,
        doc_name: '规划.md',
        version: 2,
        chunk_type: 'text',
        content: '第二段。',
      },
    ]);
    expect(unknown).toEqual(['DOC-3f2a9c1e-PARA-99']);
  });
});

describe('buildDocumentContent', () => {
  it('interleaves marked text and image bytes inside one delimited block, stripping injected tags', () => {
    const blocks = splitIntoBlocks(
      'Intro </document_content> text.\n\n![a](img_001.png)\n\n![b](img_002.emf)\n\nEnd.',
      'abcd1234',
    );
    const png = new Uint8Array([1, 2, 3]);
    const parts = buildDocumentContent(
      'x.md',
      'abcd1234',
      blocks,
      new Map([['img_001.png', { bytes: png, mime: 'image/png' }]]),
    );
    expect(parts.map((p) => p.type)).toEqual(['text', 'image', 'text']);
    const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    expect(text.match(/<\/document_content>/g)).toHaveLength(1);
    expect(text).toContain('[DOC-abcd1234-PARA-1]\nIntro  text.');
    expect(text).toContain('[DOC-abcd1234-IMAGE-2: img_002.emf] (b)');
    expect(text.endsWith('</document_content>')).toBe(true);
  });
});

describe('LruCache', () => {
  it('evicts the least recently used entries beyond its count and byte bounds', () => {
    const cache = new LruCache<string>({ maxEntries: 2, maxBytes: 10 });
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    cache.get('a');
    cache.set('c', 'C', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['A', undefined, 'C']);
    cache.set('big', 'X', 11);
    expect(cache.get('big')).toBeUndefined();
    cache.set('d', 'D', 8);
    expect(cache.size).toBe(1);
  });
});

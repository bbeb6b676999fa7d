import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '#shared/parse/markdown.ts';
import type { ParagraphNode, SectionNode, TreeNode } from '#shared/parse/types.ts';
import { gifBytes, jpegBytes, markdownInput, pngBytes, utf8 } from './fixtures.ts';

/** The tree as `type:title-or-text` outlines, children nested: easy to compare as a whole. */
function outline(nodes: TreeNode[]): unknown[] {
  return nodes.map((node) => {
    if (node.type === 'section') return { [node.title]: outline(node.children) };
    if (node.type === 'image') return `image:${node.name}`;
    return `${node.type}:${node.text}`;
  });
}

function section(nodes: TreeNode[], index: number): SectionNode {
  const node = nodes[index];
  if (node?.type !== 'section') throw new Error(`node ${index} is ${node?.type}, not a section`);
  return node;
}

describe('parseMarkdown', () => {
  it('nests headings of any depth and closes deeper ones at a shallower heading', async () => {
    const doc = await parseMarkdown(
      markdownInput(
        '# A\n\na.\n\n## A.1\n\n### A.1.1\n\n#### A.1.1.1\n\ndeep.\n\n## A.2\n\nsecond.\n\n# B\n\nb.\n',
      ),
    );
    expect(outline(doc.children)).toEqual([
      {
        A: [
          'paragraph:a.',
          { 'A.1': [{ 'A.1.1': [{ 'A.1.1.1': ['paragraph:deep.'] }] }] },
          { 'A.2': ['paragraph:second.'] },
        ],
      },
      { B: ['paragraph:b.'] },
    ]);
  });

  it('nests H3 under H1 when H2 is skipped, and a later H2 is its sibling', async () => {
    const doc = await parseMarkdown(markdownInput('# Top\n\n### Skipped\n\nx\n\n## Mid\n\ny\n'));
    expect(outline(doc.children)).toEqual([
      { Top: [{ Skipped: ['paragraph:x'] }, { Mid: ['paragraph:y'] }] },
    ]);
  });

  it('puts content before the first heading directly under the document', async () => {
    const doc = await parseMarkdown(markdownInput('Intro line.\n\n# First\n\nBody.\n'));
    expect(outline(doc.children)).toEqual(['paragraph:Intro line.', { First: ['paragraph:Body.'] }]);
  });

  it('gives a file without headings paragraphs under the document and the file name as title', async () => {
    const doc = await parseMarkdown(markdownInput('One.\n\nTwo.\n\nThree.\n', {}, 'notes/meeting notes.md'));
    expect(doc.title).toBe('meeting notes');
    expect(outline(doc.children)).toEqual(['paragraph:One.', 'paragraph:Two.', 'paragraph:Three.']);
  });

  it('keeps front matter as metadata and takes the title from it', async () => {
    const doc = await parseMarkdown(
      markdownInput('---\ntitle: 年度规划\ntags: [plan, 2024]\n---\n\n# 概述\n\n正文。\n'),
    );
    expect(doc.title).toBe('年度规划');
    expect(doc.metadata).toEqual({ title: '年度规划', tags: ['plan', 2024] });
    expect(outline(doc.children)).toEqual([{ 概述: ['paragraph:正文。'] }]);
  });

  it('warns about broken front matter and still parses the body', async () => {
    const doc = await parseMarkdown(markdownInput('---\ntitle: [unclosed\n---\n\nBody.\n'));
    expect(doc.metadata).toEqual({});
    expect(doc.warnings[0]).toContain('front matter is not valid YAML');
    expect(outline(doc.children)).toEqual(['paragraph:Body.']);
  });

  it('keeps inline Markdown in paragraphs as written', async () => {
    const doc = await parseMarkdown(
      markdownInput('Run `npm start`, see **bold** and [the docs](http://x.test/a).\n'),
    );
    expect(outline(doc.children)).toEqual([
      'paragraph:Run `npm start`, see **bold** and [the docs](http://x.test/a).',
    ]);
  });

  it('keeps a code block whole, blank lines included, with its language', async () => {
    const code = 'function a() {\n  return 1;\n}\n\n\nconst b = a();';
    const doc = await parseMarkdown(markdownInput(`# Code\n\n\`\`\`ts\n${code}\n\`\`\`\n`));
    const block = section(doc.children, 0).children[0] as ParagraphNode;
    expect(block).toEqual({ type: 'paragraph', text: code, metadata: { kind: 'code', lang: 'ts' } });
  });

  it('turns a GFM table into a table node with the pipe text and its cells', async () => {
    const table = '| 项目 | 预算 |\n|---|---:|\n| 容器化 | 500万 |\n| `k8s` | 2 \\| 3 |';
    const doc = await parseMarkdown(markdownInput(`${table}\n`));
    expect(doc.children).toEqual([
      {
        type: 'table',
        text: table,
        rows: [
          ['项目', '预算'],
          ['容器化', '500万'],
          ['`k8s`', '2 \\| 3'],
        ],
      },
    ]);
  });

  it('ends a table at a line without a pipe, so the text and table after it stay apart', async () => {
    // An estimate converted to Markdown: no blank line after a table, a caption, then the next table.
    const form =
      '| Insured name | Gabriel Diaz | | VIN | 1C4R |\n| --- | --- | --- | --- | --- |\n| Phone | 555 | | Color | White |';
    const costs = '| | Hours | Cost |\n| --- | --- | --- |\n| Parts | | 2,100 |';
    const doc = await parseMarkdown(
      markdownInput(`${form}\nEstimate Totals\n${costs}\nThis is a preliminary estimate.\n`),
    );
    expect(doc.children.map((n) => [n.type, 'text' in n ? n.text : ''])).toEqual([
      ['table', form],
      ['paragraph', 'Estimate Totals'],
      ['table', costs],
      ['paragraph', 'This is a preliminary estimate.'],
    ]);
  });

  it('makes one paragraph of a top-level list, items as lines', async () => {
    const doc = await parseMarkdown(markdownInput('- one\n\n- two\n  - nested\n1. other\n'));
    expect(doc.children[0]).toEqual({
      type: 'paragraph',
      text: '- one\n- two\n  - nested',
      metadata: { kind: 'list', ordered: false },
    });
    expect(doc.children[1]).toMatchObject({ text: '1. other', metadata: { kind: 'list', ordered: true } });
  });

  it('makes a quote paragraph without its markers, and keeps HTML as text', async () => {
    const doc = await parseMarkdown(
      markdownInput('> said this\n>\n> and that\n\n<div onclick="x()">hi</div>\n\n---\n'),
    );
    expect(doc.children).toEqual([
      { type: 'paragraph', text: 'said this\nand that', metadata: { kind: 'quote' } },
      { type: 'paragraph', text: '<div onclick="x()">hi</div>', metadata: { kind: 'html' } },
    ]);
  });

  it('parses Chinese headings and text', async () => {
    const doc = await parseMarkdown(
      markdownInput('# 第3章 基础设施\n\n## 3.2 云平台建设\n\n预计投入 500 万预算用于容器化改造。\n'),
    );
    expect(outline(doc.children)).toEqual([
      { '第3章 基础设施': [{ '3.2 云平台建设': ['paragraph:预计投入 500 万预算用于容器化改造。'] }] },
    ]);
  });

  it('uses the plain text of a heading as its title', async () => {
    const doc = await parseMarkdown(markdownInput('## Using `dropqa` **now**\n'));
    expect(section(doc.children, 0).title).toBe('Using dropqa now');
  });

  it('keeps footnotes, task markers, strikethrough and bare URLs as written', async () => {
    const doc = await parseMarkdown(
      markdownInput(
        'See https://x.test/a and ~~old~~ text.[^1]\n\n- [x] done\n- [ ] todo\n\n[^1]: The note.\n',
      ),
    );
    expect(doc.children).toEqual([
      { type: 'paragraph', text: 'See https://x.test/a and ~~old~~ text.[^1]' },
      { type: 'paragraph', text: '- [x] done\n- [ ] todo', metadata: { kind: 'list', ordered: false } },
      { type: 'paragraph', text: '[^1]: The note.', metadata: { kind: 'footnote' } },
    ]);
  });

  it('reads CRLF files like LF files', async () => {
    const doc = await parseMarkdown(markdownInput('# A\r\n\r\nline one\r\nline two\r\n'));
    expect(outline(doc.children)).toEqual([{ A: ['paragraph:line one\nline two'] }]);
  });
});

describe('parseMarkdown images', () => {
  it('splits a paragraph around an image and reads its bytes from beside the document', async () => {
    const png = pngBytes(640, 480);
    const doc = await parseMarkdown(
      markdownInput('# Arch\n\nBefore the chart ![系统架构](./images/arch%20v2.png "t") after it.\n', {
        'images/arch v2.png': png,
      }),
    );
    expect(outline(doc.children)).toEqual([
      { Arch: ['paragraph:Before the chart', 'image:img_001.png', 'paragraph:after it.'] },
    ]);
    expect(section(doc.children, 0).children[1]).toEqual({
      type: 'image',
      name: 'img_001.png',
      alt: '系统架构',
    });
    expect(doc.images).toEqual([
      {
        name: 'img_001.png',
        bytes: png,
        mime: 'image/png',
        width: 640,
        height: 480,
        source: './images/arch%20v2.png',
      },
    ]);
    expect(doc.warnings).toEqual([]);
  });

  it('names images in reading order with the extension of their real type', async () => {
    const doc = await parseMarkdown(
      markdownInput('![a](a.png)\n\n# S\n\n![b](b.png)\n\n- item ![c](c.gif)\n', {
        'a.png': pngBytes(1, 1),
        'b.png': jpegBytes(30, 20),
        'c.gif': gifBytes(5, 6),
      }),
    );
    expect(doc.images.map((image) => [image.name, image.mime, image.width, image.height])).toEqual([
      ['img_001.png', 'image/png', 1, 1],
      ['img_002.jpg', 'image/jpeg', 30, 20],
      ['img_003.gif', 'image/gif', 5, 6],
    ]);
    expect(outline(doc.children)).toEqual([
      'image:img_001.png',
      { S: ['image:img_002.jpg', 'paragraph:- item ![c](c.gif)', 'image:img_003.gif'] },
    ]);
  });

  it('resolves reference-style images and images wrapped in links', async () => {
    const doc = await parseMarkdown(
      markdownInput('![r][logo] and [![w](w.png)](http://x.test)\n\n[logo]: <pics/logo.png>\n', {
        'pics/logo.png': pngBytes(2, 2),
        'w.png': pngBytes(3, 3),
      }),
    );
    expect(outline(doc.children)).toEqual(['image:img_001.png', 'paragraph:and', 'image:img_002.png']);
    expect(doc.images.map((image) => image.source)).toEqual(['pics/logo.png', 'w.png']);
  });

  it('keeps the alt text and warns when an image is missing', async () => {
    const doc = await parseMarkdown(markdownInput('See ![the diagram](gone.png) here.\n'));
    expect(outline(doc.children)).toEqual(['paragraph:See the diagram here.']);
    expect(doc.images).toEqual([]);
    expect(doc.warnings).toEqual(['image "gone.png" skipped: it was not found beside the document']);
  });

  it('never fetches remote images', async () => {
    const reads: string[] = [];
    const input = markdownInput('![remote](https://example.com/a.png)\n');
    input.readRelative = async (path) => {
      reads.push(path);
      return pngBytes(1, 1);
    };
    const doc = await parseMarkdown(input);
    expect(reads).toEqual([]);
    expect(outline(doc.children)).toEqual(['paragraph:remote']);
    expect(doc.warnings).toEqual([
      'image "https://example.com/a.png" skipped: remote images are never fetched',
    ]);
  });

  it('refuses path traversal and absolute paths without reading them', async () => {
    const reads: string[] = [];
    const input = markdownInput(
      '![a](../../etc/passwd.png) ![b](/etc/b.png) ![c](img/%2e%2e/%2e%2e/c.png)\n',
    );
    input.readRelative = async (path) => {
      reads.push(path);
      return pngBytes(1, 1);
    };
    const doc = await parseMarkdown(input);
    expect(reads).toEqual([]);
    expect(doc.images).toEqual([]);
    expect(doc.warnings).toEqual([
      `image "../../etc/passwd.png" skipped: the path leaves the document's folder`,
      'image "/etc/b.png" skipped: absolute paths are not read',
      `image "img/%2e%2e/%2e%2e/c.png" skipped: the path leaves the document's folder`,
    ]);
  });

  it('warns about a referenced file that is not an image', async () => {
    const doc = await parseMarkdown(markdownInput('![x](x.png)\n', { 'x.png': utf8('not an image') }));
    expect(doc.images).toEqual([]);
    expect(doc.warnings[0]).toContain('not a PNG, JPEG, GIF, WebP or BMP image');
  });

  it('reads an embedded base64 data URI image', async () => {
    const base64 = Buffer.from(pngBytes(7, 9)).toString('base64');
    const doc = await parseMarkdown(markdownInput(`![inline](data:image/png;base64,${base64})\n`));
    expect(doc.images.map((image) => [image.name, image.width, image.height, image.source])).toEqual([
      ['img_001.png', 7, 9, 'data URI'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';
import { encodeGbk, pngBytes, utf8 } from './fixtures.ts';

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

const PAGE = (
  charset: string,
) => `<!DOCTYPE html><html><head><meta charset="${charset}"><title>出差指南</title>
<style>p { color: red }</style><script>var secret = "never indexed";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>差旅政策</h1><p>员工须提前14天预订机票。</p>
<h3>Hotels</h3><p>The nightly limit in <b>Lisbon</b> is 180 euros.<br>Madrid: 160.</p>
<ol><li>Book early</li><li>Keep receipts</li></ol>
<table><thead><tr><th>City</th><th>Limit</th></tr></thead><tbody><tr><td>Lisbon</td><td>180</td></tr></tbody></table>
<h1>Expenses</h1><div>Receipts within 30 days.</div>
<footer>Copyright Example</footer></body></html>`;

const OUTLINE = [
  [
    'section:差旅政策',
    [
      'paragraph:员工须提前14天预订机票。',
      [
        'section:Hotels',
        [
          'paragraph:The nightly limit in Lisbon is 180 euros.\nMadrid: 160.',
          'paragraph:1. Book early\n2. Keep receipts',
          'table:| City | Limit |\n| --- | --- |\n| Lisbon | 180 |',
        ],
      ],
    ],
  ],
  ['section:Expenses', ['paragraph:Receipts within 30 days.']],
];

describe('web pages', () => {
  it('gives h1-h6 as the tree with paragraphs, lists and tables; drops scripts, styles and navigation', async () => {
    const doc = await parse(utf8(PAGE('utf-8')), 'guide.html');
    expect(doc.title).toBe('出差指南');
    expect(outline(doc.children)).toEqual(OUTLINE);
    expect(JSON.stringify(doc.children)).not.toMatch(/never indexed|color|Home|Copyright/);
  });

  it('decodes the declared charset, UTF-16 with or without a byte-order mark, and undeclared windows-1252', async () => {
    // Node encodes no GBK, so the page's GBK bytes come from decoding every GBK pair once.
    const gbkBytes = encodeGbk(PAGE('gbk'));
    expect(outline((await parse(gbkBytes, 'guide.htm')).children)).toEqual(OUTLINE);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(PAGE('utf-16'), 'utf16le')]);
    expect(detectFileType(new Uint8Array(utf16), 'page')).toBe('html');
    expect(outline((await parse(new Uint8Array(utf16), 'guide.html')).children)).toEqual(OUTLINE);
    const noBom = new Uint8Array(Buffer.from(PAGE('utf-16'), 'utf16le'));
    expect(outline((await parse(noBom, 'guide.html')).children)).toEqual(OUTLINE);
    const latin = new Uint8Array([
      ...Buffer.from('<html><body><h1>Caf'),
      0xe9,
      ...Buffer.from('</h1></body></html>'),
    ]);
    expect(outline((await parse(latin, 'cafe.html')).children)).toEqual([['section:Café', []]]);
  });

  it('keeps data: URI images and images beside the page, and never fetches remote ones', async () => {
    const png = pngBytes(3, 2);
    const html = `<h1>Map</h1><img src="data:image/png;base64,${Buffer.from(png).toString('base64')}" alt="inline">
      <img src="img/office.png" alt="beside"><img src="https://example.com/x.png" alt="remote">`;
    const asked: string[] = [];
    const doc = await parseDocument(
      {
        bytes: utf8(html),
        filename: 'map.html',
        readRelative: async (path) => {
          asked.push(path);
          return path === 'img/office.png' ? png : undefined;
        },
      },
      'html',
    );
    expect(outline(doc.children)).toEqual([['section:Map', ['image:img_001.png', 'image:img_002.png']]]);
    expect(asked).toEqual(['img/office.png']);
    expect(doc.warnings).toEqual([
      expect.stringMatching(/https:\/\/example\.com\/x\.png" skipped: remote images are never fetched/),
    ]);
  });

  it('reads the first body only, lists by their own items and tables by their own rows, as the page nests them', async () => {
    const html = (text: string) => parse(utf8(text), 'page.html');
    const bodies = await html(
      '<p>Before the body</p><title>First</title><body><h2>Kept<p>split</p>title</h2><p>one<br>two</p></body><p>after</p><title>Second</title><body><p>second body</p></body>',
    );
    expect(bodies.title).toBe('First');
    expect(outline(bodies.children)).toEqual([['section:Kept split title', ['paragraph:one\ntwo']]]);
    // The first body counts even inside navigation; what follows it does not.
    const hidden = await html('<nav><body hidden><h1>Inside</h1>text</body></nav><h1>Outside</h1>');
    expect(outline(hidden.children)).toEqual([['section:Inside', ['paragraph:text']]]);
    const list = await html(
      '<body><ul>stray text<li>a <ul><li>nested</li></ul></li><li hidden>gone</li><p>not an item</p><li> b\n c </li></ul></body>',
    );
    expect(outline(list.children)).toEqual(['paragraph:- a nested\n- b c']);
    const table = await html(
      '<body><table><caption>cap</caption><tr><th>k</th><td aria-hidden="true">secret</td><td>v|w</td></tr><tr hidden><td>gone</td></tr><tbody><tr><td><table><tr><td>inner</td></tr></table>outer</td><div>no cell</div><td></td></tr></tbody><tr><td> </td></tr></table></body>',
    );
    expect(table.children).toEqual([
      {
        type: 'table',
        text: '| k |  | v\\|w |\n| --- | --- | --- |\n| inner outer |  |  |',
        rows: [
          ['k', '', 'v|w'],
          ['inner outer', ''],
        ],
      },
    ]);
    // Elements left open at the end of the file (a tag cut off included) still close.
    expect(outline((await html('<h1>Open heading <b>bold')).children)).toEqual([
      ['section:Open heading bold', []],
    ]);
    expect(outline((await html('<div>text <p class="x')).children)).toEqual(['paragraph:text']);
  });

  it('reads a page nested 20,000 elements deep, which a recursive walk could not', async () => {
    const html = `${'<div>'.repeat(20_000)}<h1>Deep</h1>text${'</div>'.repeat(20_000)}`;
    const doc = await parse(utf8(html), 'deep.html');
    expect(outline(doc.children)).toEqual([['section:Deep', ['paragraph:text']]]);
  });
});

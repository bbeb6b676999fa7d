import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';
import { pngBytes, zipBytes } from './fixtures.ts';

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../fixtures/legacy/${name}`, import.meta.url)));

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
  'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';

function odf(
  mime: string,
  body: string,
  extra: { name: string; data: Uint8Array | string }[] = [],
): Uint8Array {
  return zipBytes([
    { name: 'mimetype', data: mime },
    {
      name: 'content.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles><style:style style:name="P7" style:family="paragraph" style:parent-style-name="Heading_20_2"/></office:automatic-styles><office:body>${body}</office:body></office:document-content>`,
      deflate: true,
    },
    {
      name: 'meta.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${NS}><office:meta><dc:title>季度手册</dc:title><meta:initial-creator>Li Na</meta:initial-creator></office:meta></office:document-meta>`,
    },
    ...extra,
  ]);
}

const TEXT = odf(
  'application/vnd.oasis.opendocument.text',
  `<office:text><text:sequence-decls><text:sequence-decl text:name="Table"/></text:sequence-decls>
  <text:table-of-content><text:index-body><text:p>Scope ........ 1</text:p></text:index-body></text:table-of-content>
  <text:h text:outline-level="1">Scope</text:h>
  <text:p>Two<text:s text:c="3"/>spaces, a<text:tab/>tab and a note<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>The footnote text.</text:p></text:note-body></text:note>.</text:p>
  <text:p text:style-name="P7">Rules by style</text:p>
  <text:list><text:list-item><text:p>First</text:p><text:list><text:list-item><text:p>Nested</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Second</text:p></text:list-item></text:list>
  <table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>城市</text:p></table:table-cell><table:table-cell><text:p>限额</text:p></table:table-cell></table:table-row></table:table-header-rows>
  <table:table-row><table:table-cell><text:p>Lisbon</text:p></table:table-cell><table:table-cell><text:p>180</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1000"/></table:table-row></table:table>
  <text:h text:outline-level="1">附录</text:h>
  <text:p><draw:frame draw:name="Chart"><draw:image xlink:href="Pictures/chart.png"/><svg:title>销售图</svg:title></draw:frame></text:p>
  </office:text>`,
  [{ name: 'Pictures/chart.png', data: pngBytes(30, 20) }],
);

describe('OpenDocument text (.odt)', () => {
  it('gives text:h levels and heading-derived styles as the tree, with paragraphs, notes, lists, tables and images', async () => {
    expect(detectFileType(TEXT, 'handbook.odt')).toBe('odt');
    const doc = await parse(TEXT, 'handbook.odt');
    expect(doc.title).toBe('季度手册');
    expect(doc.metadata).toMatchObject({ creator: 'Li Na' });
    expect(outline(doc.children)).toEqual([
      [
        'section:Scope',
        [
          'paragraph:Two spaces, a tab and a note.',
          'paragraph:The footnote text.',
          [
            'section:Rules by style',
            [
              'paragraph:- First\n  - Nested\n- Second',
              'table:| 城市 | 限额 |\n| --- | --- |\n| Lisbon | 180 |',
            ],
          ],
        ],
      ],
      ['section:附录', ['image:img_001.png']],
    ]);
    expect(doc.images.map((image) => [image.width, image.height, image.source])).toEqual([
      [30, 20, 'Pictures/chart.png'],
    ]);
  });

  it('reads a LibreOffice-written file whose headings are styled paragraphs', async () => {
    const doc = await parse(fixture('handbook.odt'), 'handbook.odt');
    expect(doc.title).toBe('Staff handbook');
    expect(outline(doc.children)).toEqual([
      [
        'section:Travel policy',
        [
          'paragraph:Employees book flights through the travel desk at least 14 days ahead.',
          [
            'section:Hotels',
            [
              'paragraph:The nightly hotel limit in Lisbon is 180 euros.',
              'table:| City | Limit |\n| --- | --- |\n| Lisbon | 180 |\n| Madrid | 160 |',
              'image:img_001.png',
            ],
          ],
        ],
      ],
      [
        'section:Expenses',
        [
          'paragraph:Receipts are filed within 30 days of the trip.',
          'paragraph:报销须在三十天内提交，逾期不予受理。',
        ],
      ],
    ]);
  });

  it('fails a password-protected package with that reason, not as one without a body', async () => {
    const bytes = new Uint8Array(
      readFileSync(new URL('../../fixtures/encrypted/handbook-password.odt', import.meta.url)),
    );
    await expect(parse(bytes, 'locked.odt')).rejects.toThrow(
      'locked.odt is password-protected (an encrypted OpenDocument text document); save it without a password',
    );
  });

  it('fails a package without content.xml and a damaged archive with readable reasons', async () => {
    const empty = zipBytes([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' },
      { name: 'content.xml', data: '' },
    ]);
    await expect(parse(empty, 'empty.odt')).rejects.toThrow(
      'empty.odt is not a readable OpenDocument text document: its content.xml has no document body',
    );
    const noContent = zipBytes([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' },
      { name: 'styles.xml', data: '<x/>' },
    ]);
    // Without content.xml the archive is not recognised as OpenDocument at all.
    expect(() => detectFileType(noContent, 'broken.odt')).toThrow(/broken\.odt is a ZIP archive/);
    await expect(parse(TEXT.slice(0, TEXT.length - 30), 'cut.odt')).rejects.toThrow(
      /^cut\.odt is damaged: its ZIP archive is truncated or corrupted, so it is not a valid OpenDocument text document/,
    );
  });
});

describe('OpenDocument presentations (.odp)', () => {
  it('gives a section per slide titled by its title placeholder, its text, and speaker notes last', async () => {
    const doc = await parse(fixture('review.odp'), 'review.odp');
    expect(outline(doc.children)).toEqual([
      [
        'section:Quarterly review',
        ['paragraph:Revenue grew 12 percent over the quarter', 'paragraph:The Lisbon office opens in March.'],
      ],
      // LibreOffice's import of the deck's one picture gives two frames (its .ppt export keeps both).
      [
        'section:Risks',
        ['image:img_001.jpg', 'image:img_002.jpg', 'paragraph:- Supplier delays\n- Currency swings'],
      ],
      ['section:下一步', ['paragraph:招聘两名数据工程师']],
    ]);
    const first = doc.children[0];
    const notes = first?.type === 'section' ? first.children[1] : undefined;
    expect(notes?.metadata).toEqual({ slide: 1, kind: 'notes' });
  });

  it('numbers untitled slides and reads their tables and images', async () => {
    const deck = odf(
      'application/vnd.oasis.opendocument.presentation',
      `<office:presentation><draw:page draw:name="page1"><draw:frame presentation:class="outline"><draw:text-box><text:p>Agenda</text:p></draw:text-box></draw:frame>
      <draw:frame><table:table><table:table-row><table:table-cell><text:p>Q1</text:p></table:table-cell><table:table-cell><text:p>10</text:p></table:table-cell></table:table-row></table:table></draw:frame>
      <draw:frame><draw:image xlink:href="Pictures/p.png"/></draw:frame></draw:page></office:presentation>`,
      [{ name: 'Pictures/p.png', data: pngBytes(8, 8) }],
    );
    expect(detectFileType(deck, 'deck.odp')).toBe('odp');
    const doc = await parse(deck, 'deck.odp');
    expect(outline(doc.children)).toEqual([
      ['section:Slide 1', ['paragraph:Agenda', 'table:| Q1 | 10 |\n| --- | --- |', 'image:img_001.png']],
    ]);
  });
});

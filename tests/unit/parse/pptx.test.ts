import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { parsePptx } from '#shared/parse/pptx/index.ts';
import { renderMarkdown } from '#shared/parse/render-markdown.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { pngBytes } from './fixtures.ts';
import { imageData, pptxBytes, TITLE_AND_BODY } from './pptx-fixtures.ts';

const PNG = pngBytes(40, 30);

/** Three slides: a titled one with bullets and notes, a hidden one with a table, chart and picture, an empty one. */
function boardDeck(): Promise<Uint8Array> {
  return pptxBytes((deck) => {
    const intro = deck.addSlide({ masterName: TITLE_AND_BODY });
    intro.addText('Quarterly review', { placeholder: 'title' });
    intro.addText(
      [
        { text: 'Revenue up', options: { bullet: true, breakLine: true } },
        { text: 'Europe led', options: { bullet: true, indentLevel: 1, breakLine: true } },
        { text: 'Costs down', options: { bullet: true } },
      ],
      { placeholder: 'body' },
    );
    intro.addText('Prepared by finance', { x: 1, y: 4.5, w: 4, h: 0.5 });
    intro.addNotes('Mention the hiring freeze.');

    const numbers = deck.addSlide();
    numbers.hidden = true;
    numbers.addText(
      [
        { text: 'Numbers', options: { breakLine: true } },
        { text: 'By region', options: { breakLine: true } },
        { text: 'Unaudited' },
      ],
      { x: 0.5, y: 0.2, w: 6, h: 1 },
    );
    numbers.addTable(
      [
        [
          { text: 'Region', options: { rowspan: 2 } },
          { text: 'Quarter', options: { colspan: 2 } },
        ],
        [{ text: 'Q1' }, { text: 'Q2' }],
        [{ text: 'North' }, { text: '10' }, { text: '12' }],
      ],
      { x: 0.5, y: 1.5, w: 6 },
    );
    numbers.addChart(deck.ChartType.bar, [{ name: 'Sales', labels: ['Q1', 'Q2'], values: [10, 12] }], {
      x: 0.5,
      y: 3,
      w: 4,
      h: 2,
      showTitle: true,
      title: 'Sales by quarter',
    });
    numbers.addImage({ data: imageData('image/png', PNG), x: 5, y: 3, w: 1, h: 1, altText: 'Regional map' });

    deck.addSlide().addImage({ data: imageData('image/png', PNG), x: 1, y: 1, w: 1, h: 1 });
  });
}

describe('parsePptx', () => {
  it('makes one section per slide with its text, tables, charts, pictures and notes in reading order', async () => {
    const document = await parsePptx({ bytes: await boardDeck(), filename: 'board.pptx' });

    expect(document.children).toEqual([
      {
        type: 'section',
        title: 'Quarterly review',
        metadata: { slide: 1 },
        children: [
          {
            type: 'paragraph',
            text: '- Revenue up\n  - Europe led\n- Costs down',
            metadata: { kind: 'list', ordered: false, slide: 1 },
          },
          { type: 'paragraph', text: 'Prepared by finance', metadata: { slide: 1 } },
          { type: 'paragraph', text: 'Mention the hiring freeze.', metadata: { slide: 1, kind: 'notes' } },
        ],
      },
      {
        type: 'section',
        title: 'Numbers',
        metadata: { slide: 2, hidden: true },
        children: [
          { type: 'paragraph', text: 'By region\nUnaudited', metadata: { slide: 2 } },
          {
            type: 'table',
            text: '| Region | Quarter |  |\n| --- | --- | --- |\n| Region | Q1 | Q2 |\n| North | 10 | 12 |',
            rows: [
              ['Region', 'Quarter', ''],
              ['Region', 'Q1', 'Q2'],
              ['North', '10', '12'],
            ],
            metadata: { slide: 2 },
          },
          { type: 'paragraph', text: 'Sales by quarter', metadata: { slide: 2, kind: 'chart' } },
          {
            type: 'table',
            text: '|  | Sales |\n| --- | --- |\n| Q1 | 10 |\n| Q2 | 12 |',
            rows: [
              ['', 'Sales'],
              ['Q1', '10'],
              ['Q2', '12'],
            ],
            metadata: { slide: 2, kind: 'chart', title: 'Sales by quarter' },
          },
          { type: 'image', name: 'img_001.png', alt: 'Regional map', metadata: { slide: 2 } },
        ],
      },
      {
        type: 'section',
        title: 'Slide 3',
        metadata: { slide: 3 },
        // pptxgenjs writes a picture's file name as its description when there is no alt text.
        children: [{ type: 'image', name: 'img_002.png', alt: 'preencoded.png', metadata: { slide: 3 } }],
      },
    ]);
  });

  it('extracts each picture with its type and dimensions, and titles the document from its properties', async () => {
    const document = await parsePptx({ bytes: await boardDeck(), filename: 'board.pptx' });

    expect(document.title).toBe('Board deck');
    expect(document.metadata).toMatchObject({ title: 'Board deck', slides: 3 });
    expect(document.images.map(({ bytes, ...image }) => ({ ...image, size: bytes.length }))).toEqual([
      {
        name: 'img_001.png',
        mime: 'image/png',
        width: 40,
        height: 30,
        source: 'ppt/media/image-2-1.png',
        size: PNG.length,
      },
      {
        name: 'img_002.png',
        mime: 'image/png',
        width: 40,
        height: 30,
        source: 'ppt/media/image-3-1.png',
        size: PNG.length,
      },
    ]);
    expect(document.warnings).toEqual([]);
  });

  it('titles the document by its first slide when the properties hold only a template title', async () => {
    const bytes = await pptxBytes((deck) => {
      deck.addSlide({ masterName: TITLE_AND_BODY }).addText('Roadmap 2025', { placeholder: 'title' });
    }, 'PowerPoint Presentation');

    expect((await parsePptx({ bytes, filename: 'plan.pptx' })).title).toBe('Roadmap 2025');
  });

  it('goes through parseDocument once the type is detected by content', async () => {
    const bytes = await boardDeck();
    const type = detectFileType(bytes, 'upload.bin');

    expect(type).toBe('pptx');
    const document = await parseDocument({ bytes, filename: 'upload.bin' }, type);
    expect(document.children.map((node) => (node.type === 'section' ? node.title : node.type))).toEqual([
      'Quarterly review',
      'Numbers',
      'Slide 3',
    ]);
  });

  it('nests slides under the deck’s named sections, and ignores a lone section', async () => {
    const outline = (document: ParsedDocument) =>
      document.children.map((node) =>
        node.type === 'section' && node.metadata?.kind === 'slide-group'
          ? [node.title, node.children.map((slide) => (slide.type === 'section' ? slide.title : slide.type))]
          : node.type === 'section'
            ? node.title
            : node.type,
      );
    const sectioned = await pptxBytes((deck) => {
      deck.addSection({ title: 'Intro' });
      deck.addSection({ title: 'Results' });
      for (const [title, section] of [
        ['Why', 'Intro'],
        ['How', 'Intro'],
        ['Numbers', 'Results'],
      ] as const) {
        deck.addSlide({ sectionTitle: section }).addText(title, { x: 1, y: 1, w: 4, h: 1 });
      }
    });
    const lone = await pptxBytes((deck) => {
      deck.addSection({ title: 'Everything' });
      deck.addSlide({ sectionTitle: 'Everything' }).addText('Only', { x: 1, y: 1, w: 4, h: 1 });
    });

    const document = await parsePptx({ bytes: sectioned, filename: 'deck.pptx' });
    expect(outline(document)).toEqual([
      ['Intro', ['Why', 'How']],
      ['Results', ['Numbers']],
    ]);
    expect(document.metadata.slides).toBe(3);
    expect(outline(await parsePptx({ bytes: lone, filename: 'deck.pptx' }))).toEqual(['Only']);
  });

  it('renders as Markdown with a heading per slide and the pictures linked beside it', async () => {
    const bytes = await pptxBytes((deck) => {
      const slide = deck.addSlide({ masterName: TITLE_AND_BODY });
      slide.addText('Plan', { placeholder: 'title' });
      slide.addText(
        [
          { text: 'Hire', options: { bullet: true, breakLine: true } },
          { text: 'Ship', options: { bullet: true } },
        ],
        { placeholder: 'body' },
      );
      slide.addImage({ data: imageData('image/png', PNG), x: 1, y: 1, w: 1, h: 1, altText: 'Org chart' });
      slide.addNotes('Say why.');
    });

    expect(renderMarkdown(await parsePptx({ bytes, filename: 'plan.pptx' }))).toBe(
      '# Plan\n\n- Hire\n- Ship\n\n![Org chart](img_001.png)\n\nSay why.\n',
    );
  });
});

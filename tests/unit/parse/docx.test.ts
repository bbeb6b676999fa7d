import {
  AlignmentType,
  Document,
  FootnoteReferenceRun,
  HeadingLevel,
  LevelFormat,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import { describe, expect, it } from 'vitest';
import { parseDocx } from '#shared/parse/docx/index.ts';
import { docxBytes, leaves, outline, rewriteDocx, text } from './docx-fixtures.ts';

const NUMBERING = {
  config: [
    {
      reference: 'steps',
      levels: [
        { level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START },
        { level: 1, format: LevelFormat.DECIMAL, text: '%2.', alignment: AlignmentType.START },
      ],
    },
    {
      reference: 'headings',
      levels: [
        { level: 0, format: LevelFormat.DECIMAL, text: '%1', alignment: AlignmentType.START },
        { level: 1, format: LevelFormat.DECIMAL, text: '%1.%2', alignment: AlignmentType.START },
      ],
    },
  ],
};

function cell(value: string, options: { rowSpan?: number; columnSpan?: number } = {}): TableCell {
  return new TableCell({ children: [new Paragraph(value)], ...options });
}

async function englishReport(title?: string): Promise<Uint8Array> {
  return docxBytes(
    new Document({
      ...(title ? { title } : {}),
      numbering: NUMBERING,
      footnotes: { 1: { children: [new Paragraph('Audited by the finance team.')] } },
      sections: [
        {
          children: [
            new Paragraph({ text: 'Quarterly Report', heading: HeadingLevel.TITLE }),
            new Paragraph('Prepared for the board.'),
            new Paragraph({ text: 'Summary', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ children: [new TextRun('Revenue grew 12%.'), new FootnoteReferenceRun(1)] }),
            new Paragraph({ text: 'Regions', heading: HeadingLevel.HEADING_2 }),
            new Table({
              rows: [
                new TableRow({ children: [cell('Region'), cell('Q1'), cell('Q2')] }),
                new TableRow({ children: [cell('North', { rowSpan: 2 }), cell('10'), cell('12')] }),
                new TableRow({ children: [cell('11'), cell('13')] }),
                new TableRow({ children: [cell('Total', { columnSpan: 2 }), cell('25')] }),
              ],
            }),
            new Paragraph({ text: 'Details', heading: HeadingLevel.HEADING_4 }),
            new Paragraph({ text: 'Apples', bullet: { level: 0 } }),
            new Paragraph({ text: 'Green apples', bullet: { level: 1 } }),
            new Paragraph({ text: 'Pears', bullet: { level: 0 } }),
            new Paragraph('Then the steps:'),
            new Paragraph({ text: 'Plan', numbering: { reference: 'steps', level: 0 } }),
            new Paragraph({ text: 'Draft', numbering: { reference: 'steps', level: 1 } }),
            new Paragraph({ text: 'Ship', numbering: { reference: 'steps', level: 0 } }),
            new Paragraph({ text: 'Outlook', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Growth continues.'),
          ],
        },
      ],
    }),
  );
}

describe('parseDocx', () => {
  it('builds sections from heading styles, with lists, tables and footnotes in reading order', async () => {
    const parsed = await parseDocx({ bytes: await englishReport(), filename: 'report.docx' });
    expect(parsed.title).toBe('Quarterly Report');
    expect(outline(parsed.children)).toEqual([
      'paragraph:Prepared for the board.',
      [
        'section:Summary',
        [
          'paragraph:Revenue grew 12%.[^1]',
          [
            'section:Regions',
            [
              'table:| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 10 | 12 |\n| North | 11 | 13 |\n| Total |  | 25 |',
              [
                'section:Details',
                [
                  'paragraph:- Apples\n  - Green apples\n- Pears',
                  'paragraph:Then the steps:',
                  'paragraph:1. Plan\n  1. Draft\n2. Ship',
                ],
              ],
            ],
          ],
        ],
      ],
      ['section:Outlook', ['paragraph:Growth continues.']],
      'paragraph:[^1]: Audited by the finance team.',
    ]);
    const all = leaves(parsed);
    const table = all.find((node) => node.type === 'table');
    expect(table?.type === 'table' && table.rows).toEqual([
      ['Region', 'Q1', 'Q2'],
      ['North', '10', '12'],
      ['North', '11', '13'],
      ['Total', '', '25'],
    ]);
    const kinds = all.map((node) => (node.type === 'paragraph' ? node.metadata?.kind : node.type));
    expect(kinds).toEqual([undefined, undefined, 'table', 'list', undefined, 'list', undefined, 'footnote']);
    expect(parsed.warnings).toEqual([]);
  });

  it('takes the title from the core properties before the Title paragraph, and keeps that paragraph', async () => {
    const parsed = await parseDocx({ bytes: await englishReport('Q3 Board Pack'), filename: 'report.docx' });
    expect(parsed.title).toBe('Q3 Board Pack');
    expect(parsed.metadata.title).toBe('Q3 Board Pack');
    expect(parsed.children[0]).toEqual({
      type: 'paragraph',
      text: 'Quarterly Report',
      metadata: { kind: 'title' },
    });
  });

  it('falls back to the file name when there is no title', async () => {
    const bytes = await docxBytes(new Document({ sections: [{ children: [new Paragraph('Just text.')] }] }));
    const parsed = await parseDocx({ bytes, filename: 'notes/meeting 2024.docx' });
    expect(parsed.title).toBe('meeting 2024');
    expect(outline(parsed.children)).toEqual(['paragraph:Just text.']);
  });

  it('maps localized heading style names (Chinese, German) to levels', async () => {
    const style = (id: string, name: string) => ({
      id,
      name,
      basedOn: 'Normal',
      next: 'Normal',
      run: { bold: true },
    });
    const bytes = await docxBytes(
      new Document({
        styles: {
          paragraphStyles: [
            style('zhTitle', '标题'),
            style('zh1', '标题 1'),
            style('zh2', '标题 2'),
            style('de1', 'Überschrift 1'),
          ],
        },
        sections: [
          {
            children: [
              new Paragraph({ text: '年度报告', style: 'zhTitle' }),
              new Paragraph({ text: '概述', style: 'zh1' }),
              new Paragraph('本年度收入增长百分之十二。'),
              new Paragraph({ text: '市场', style: 'zh2' }),
              new Paragraph('华东地区表现最好。'),
              new Paragraph({ text: 'Ausblick', style: 'de1' }),
              new Paragraph('Das Wachstum hält an.'),
            ],
          },
        ],
      }),
    );
    const parsed = await parseDocx({ bytes, filename: '报告.docx' });
    expect(parsed.title).toBe('年度报告');
    expect(outline(parsed.children)).toEqual([
      [
        'section:概述',
        ['paragraph:本年度收入增长百分之十二。', ['section:市场', ['paragraph:华东地区表现最好。']]],
      ],
      ['section:Ausblick', ['paragraph:Das Wachstum hält an.']],
    ]);
  });

  it('puts the automatic number of numbered headings in their titles', async () => {
    const heading = (text: string, level: 0 | 1) =>
      new Paragraph({
        text,
        heading: level === 0 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
        numbering: { reference: 'headings', level },
      });
    const bytes = await docxBytes(
      new Document({
        numbering: NUMBERING,
        sections: [
          {
            children: [
              heading('Scope', 0),
              heading('Goals', 1),
              heading('Limits', 1),
              heading('Method', 0),
              heading('Data', 1),
              new Paragraph('Collected weekly.'),
            ],
          },
        ],
      }),
    );
    const parsed = await parseDocx({ bytes, filename: 'plan.docx' });
    expect(outline(parsed.children)).toEqual([
      [
        'section:1 Scope',
        [
          ['section:1.1 Goals', []],
          ['section:1.2 Limits', []],
        ],
      ],
      ['section:2 Method', [['section:2.1 Data', ['paragraph:Collected weekly.']]]],
    ]);
    const first = parsed.children[0];
    expect(first?.type === 'section' && first.metadata?.number).toBe('1');
  });

  it('gives no number to headings whose outline numbering shows none, as LibreOffice writes them', async () => {
    // LibreOffice links each heading style to its outline numbering (w:lvl/w:pStyle), whose levels
    // have the format "none": Word and LibreOffice show "Scope", not "1 Scope".
    const outlineLevel = (level: 0 | 1, format: 'none' | 'decimal') => ({
      level,
      format: format === 'none' ? LevelFormat.NONE : LevelFormat.DECIMAL,
      text: level === 0 ? '%1' : '%1.%2',
      alignment: AlignmentType.START,
    });
    const build = async (format: 'none' | 'decimal') => {
      const heading = (value: string, level: 0 | 1) =>
        new Paragraph({
          text: value,
          heading: level === 0 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
          numbering: { reference: 'outline', level },
        });
      const bytes = await docxBytes(
        new Document({
          numbering: {
            config: [{ reference: 'outline', levels: [outlineLevel(0, format), outlineLevel(1, format)] }],
          },
          sections: [{ children: [heading('Scope', 0), heading('Goals', 1), new Paragraph('Weekly.')] }],
        }),
      );
      return rewriteDocx(bytes, (name, data) =>
        name === 'word/numbering.xml'
          ? text(data).replace(
              // The outline's levels only (their text has a placeholder; the package's bullets have none).
              /<w:lvl w:ilvl="([01])"([^>]*)>(?=(?:(?!<\/w:lvl>)[\s\S])*w:lvlText w:val="%)/g,
              (_, level: string, rest: string) =>
                `<w:lvl w:ilvl="${level}"${rest}><w:pStyle w:val="Heading${Number(level) + 1}"/>`,
            )
          : data,
      );
    };
    const silent = await parseDocx({ bytes: await build('none'), filename: 'lo.docx' });
    expect(outline(silent.children)).toEqual([['section:Scope', [['section:Goals', ['paragraph:Weekly.']]]]]);
    const numbered = await parseDocx({ bytes: await build('decimal'), filename: 'word.docx' });
    expect(outline(numbered.children)).toEqual([
      ['section:1 Scope', [['section:1.1 Goals', ['paragraph:Weekly.']]]],
    ]);
  });

  it('keeps text before the first heading and nests skipped heading levels', async () => {
    const bytes = await docxBytes(
      new Document({
        sections: [
          {
            children: [
              new Paragraph('Preface.'),
              new Paragraph({ text: 'Deep', heading: HeadingLevel.HEADING_3 }),
              new Paragraph('Inside deep.'),
              new Paragraph({ text: 'Top', heading: HeadingLevel.HEADING_1 }),
              new Paragraph({ text: 'Below top', heading: HeadingLevel.HEADING_3 }),
              new Paragraph({ text: 'Sibling', heading: HeadingLevel.HEADING_2 }),
            ],
          },
        ],
      }),
    );
    const parsed = await parseDocx({ bytes, filename: 'a.docx' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:Preface.',
      ['section:Deep', ['paragraph:Inside deep.']],
      [
        'section:Top',
        [
          ['section:Below top', []],
          ['section:Sibling', []],
        ],
      ],
    ]);
  });

  it('marks captions and leaves out table-of-contents entries, which repeat the headings', async () => {
    const style = (id: string, name: string) => ({ id, name, basedOn: 'Normal', next: 'Normal' });
    const bytes = await docxBytes(
      new Document({
        styles: {
          paragraphStyles: [style('TOC1', 'toc 1'), style('Caption', 'caption'), style('zhCap', '题注')],
        },
        sections: [
          {
            children: [
              new Paragraph({ text: 'Results 1', style: 'TOC1' }),
              new Paragraph({ text: 'Results', heading: HeadingLevel.HEADING_1 }),
              new Paragraph({ text: 'Table 1: Yields', style: 'Caption' }),
              new Table({ rows: [new TableRow({ children: [cell('Crop'), cell('Yield')] })] }),
              new Paragraph({ text: '表 2：产量', style: 'zhCap' }),
            ],
          },
        ],
      }),
    );
    const parsed = await parseDocx({ bytes, filename: 'r.docx' });
    expect(outline(parsed.children)).toEqual([
      [
        'section:Results',
        ['paragraph:Table 1: Yields', 'table:| Crop | Yield |\n| --- | --- |', 'paragraph:表 2：产量'],
      ],
    ]);
    const kinds = leaves(parsed).map((node) => node.metadata?.kind);
    expect(kinds).toEqual(['caption', undefined, 'caption']);
  });
});

import { describe, expect, it } from 'vitest';
import { parsePdf } from '#shared/parse/pdf/index.ts';
import { body, heading, outline, type Pdf, pdfBytes, stamp } from './pdf-fixtures.ts';

const LEFT = [
  'The left column opens the story with the harbour at dawn and the boats going out to sea.',
  'It goes on with the market, where fish and bread are sold until the bells ring at noon.',
].join(' ');
const RIGHT = [
  'The right column tells of the evening, when the boats come home and the lamps are lit.',
  'It closes with the tavern, where the sailors sing until the harbour master sends them home.',
].join(' ');

/**
 * Draws rows of cells from y = 120, each cell at its column's x and wrapped to `width`, rows `padding`
 * apart below their tallest cell; returns where the table ends.
 */
function wrappedTable(doc: Pdf, rows: string[][], xs: number[], width: number, padding: number): number {
  let y = 120;
  for (const row of rows) {
    const heights = row.map((cell, j) => {
      doc.text(cell, xs[j] ?? 72, y, { width });
      return doc.y - y;
    });
    y += Math.max(...heights) + padding;
  }
  return y;
}

describe('parsePdf layout', () => {
  it('reads a two-column page column by column instead of line by line', async () => {
    const bytes = await pdfBytes((doc) => {
      doc.font('Helvetica-Bold').fontSize(16).text('Harbour Life', 72, 72);
      doc.font('Helvetica').fontSize(11);
      doc.text(LEFT, 72, 110, { width: 210 });
      doc.text(RIGHT, 320, 110, { width: 210 });
    });
    const parsed = await parsePdf({ bytes, filename: 'h.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:Harbour Life',
      `paragraph:${LEFT}`,
      `paragraph:${RIGHT}`,
    ]);
  });

  it('keeps rows of cells separated by wide gaps as a table', async () => {
    const rows = [
      ['Region', 'Q1', 'Q2'],
      ['North', '10', '12'],
      ['South', '11', '13'],
    ];
    const bytes = await pdfBytes((doc) => {
      body(doc, 'Sales by region:');
      rows.forEach((row, i) => {
        row.forEach((cell, j) => {
          doc.text(cell, 72 + j * 160, 120 + i * 18, { lineBreak: false });
        });
      });
      doc.text('Both regions grew.', 72, 200);
    });
    const parsed = await parsePdf({ bytes, filename: 't.pdf' });
    expect(parsed.children).toEqual([
      { type: 'paragraph', text: 'Sales by region:', metadata: { page: 1 } },
      {
        type: 'table',
        text: '| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 10 | 12 |\n| South | 11 | 13 |',
        rows,
        metadata: { page: 1 },
      },
      { type: 'paragraph', text: 'Both regions grew.', metadata: { page: 1 } },
    ]);
  });

  it('merges a cell wrapped over two lines into its row', async () => {
    const rows = [
      ['Region', 'Description', 'Total'],
      ['North', 'Coastal towns and the harbour district beside the sea', '10'],
      ['South', 'Farmland', '11'],
    ];
    const bytes = await pdfBytes((doc) => {
      body(doc, 'Sales by region:');
      const bottom = wrappedTable(doc, rows, [72, 180, 400], 190, 8);
      doc.text('All regions grew.', 72, bottom + 20);
    });
    const parsed = await parsePdf({ bytes, filename: 'wrapped.pdf' });
    expect(parsed.children.map((node) => node.type)).toEqual(['paragraph', 'table', 'paragraph']);
    expect(parsed.children[1]).toMatchObject({ type: 'table', rows });
  });

  it('merges a wrapped first cell into its row when rows stand further apart than its lines', async () => {
    const rows = [
      ['Site', 'Opened', 'Staff'],
      ['Harbour office and warehouse', '1998', '12'],
      ['Hill station', '2004', '3'],
    ];
    const bytes = await pdfBytes((doc) => {
      wrappedTable(doc, rows, [72, 250, 400], 110, 10);
    });
    const parsed = await parsePdf({ bytes, filename: 'sites.pdf' });
    expect(parsed.children).toEqual([expect.objectContaining({ type: 'table', rows })]);
  });

  it('keeps the paragraph that wraps beside a floating table out of the table', async () => {
    // As Word and LibreOffice print a table floating at the left margin: its rows share baselines
    // with the lines of the paragraph beside it, which goes on under the table at full width.
    const rows = [
      ['Region', '2024', '2025'],
      ['North', '1.1', '1.5'],
      ['South', '1.6', '1.6'],
      ['East', '1.05', '1.1'],
    ];
    const beside = [
      'Revenue grew in every region except the south, where',
      'two large customers moved their contracts to a',
      'competitor in the spring. The board asked the sales',
      'office to report on the causes before the summer',
    ];
    const below = 'meeting, and to propose a plan for winning them back within the next financial year.';
    const bytes = await pdfBytes((doc) => {
      body(doc, 'The northern region opened two new offices this year.');
      const top = doc.y;
      const pitch = doc.currentLineHeight(true);
      beside.forEach((line, i) => {
        doc.text(line, 290, top + i * pitch, { lineBreak: false });
        rows[i]?.forEach((cell, j) => {
          doc.text(cell, 72 + j * 60, top + i * pitch, { lineBreak: false });
        });
      });
      doc.text(below, 72, top + beside.length * pitch, { width: 468 });
      doc.moveDown();
      doc.text('Costs stayed flat.', 72);
    });
    const parsed = await parsePdf({ bytes, filename: 'float.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:The northern region opened two new offices this year.',
      `table:| Region | 2024 | 2025 |\n| --- | --- | --- |\n${rows
        .slice(1)
        .map((row) => `| ${row.join(' | ')} |`)
        .join('\n')}`,
      `paragraph:${beside.join(' ')} ${below}`,
      'paragraph:Costs stayed flat.',
    ]);
  });

  it('joins a paragraph that a page break cut in two, on the page where it starts', async () => {
    const bytes = await pdfBytes((doc) => {
      body(doc, 'A short opening paragraph.');
      doc.text('The last sentence of the first page goes on', 72, 690);
      doc.addPage();
      doc.text('over the page break and ends here.', 72, 72);
      doc.moveDown();
      doc.text('The second page has its own paragraph too.');
    });
    const parsed = await parsePdf({ bytes, filename: 'b.pdf' });
    expect(parsed.children).toEqual([
      { type: 'paragraph', text: 'A short opening paragraph.', metadata: { page: 1 } },
      {
        type: 'paragraph',
        text: 'The last sentence of the first page goes on over the page break and ends here.',
        metadata: { page: 1 },
      },
      { type: 'paragraph', text: 'The second page has its own paragraph too.', metadata: { page: 2 } },
    ]);
  });

  it('drops running headers, footers and bare page numbers', async () => {
    const bytes = await pdfBytes((doc) => {
      for (let page = 1; page <= 3; page++) {
        if (page > 1) doc.addPage();
        stamp(doc, 'ACME Corp - Internal', 72, 30);
        stamp(doc, `Page ${page} of 3`, 280, 760);
        doc.x = 72;
        doc.y = 72;
        heading(doc, `Part ${page} Overview`, 16);
        body(doc, `Findings of part ${page} are summarised here for the board.`);
      }
    });
    const parsed = await parsePdf({ bytes, filename: 'r.pdf' });
    expect(outline(parsed.children)).toEqual([
      ['Part 1 Overview', ['paragraph:Findings of part 1 are summarised here for the board.']],
      ['Part 2 Overview', ['paragraph:Findings of part 2 are summarised here for the board.']],
      ['Part 3 Overview', ['paragraph:Findings of part 3 are summarised here for the board.']],
    ]);
    expect(parsed.warnings).toContain('6 running header, footer or page-number line(s) left out');
  });

  it('drops running headers that name the current chapter', async () => {
    const chapters = ['Setup', 'Use', 'Care'];
    const bytes = await pdfBytes((doc) => {
      for (let page = 0; page < 6; page++) {
        if (page > 0) doc.addPage();
        const chapter = Math.floor(page / 2);
        stamp(doc, `Chapter ${chapter + 1}: ${chapters[chapter]}`, 72, 30);
        doc.x = 72;
        doc.y = 72;
        body(doc, `Text of page ${page + 1}.`);
      }
    });
    const parsed = await parsePdf({ bytes, filename: 'c.pdf' });
    expect(outline(parsed.children)).toEqual(
      [1, 2, 3, 4, 5, 6].map((page) => `paragraph:Text of page ${page}.`),
    );
  });

  it('keeps a line that only looks like a header when it is in the body of the page', async () => {
    const bytes = await pdfBytes((doc) => {
      body(doc, '2024');
      body(doc, 'The year above is part of the text.');
    });
    const parsed = await parsePdf({ bytes, filename: 'y.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:2024',
      'paragraph:The year above is part of the text.',
    ]);
  });
});

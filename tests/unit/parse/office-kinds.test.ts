import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument, TreeNode } from '#shared/parse/types.ts';
import { leaves, outline } from './docx-fixtures.ts';

/** The committed files of `tests/fixtures/office-kinds` (written by its generate.ts). */
async function parse(file: string): Promise<ParsedDocument> {
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/office-kinds/${file}`, import.meta.url)));
  return parseDocument({ bytes, filename: file }, detectFileType(bytes, file));
}

function headings(nodes: readonly TreeNode[]): string[] {
  return nodes.flatMap((node) => (node.type === 'section' ? [node.title, ...headings(node.children)] : []));
}

const REVENUE_TABLE =
  '|  | North | South |\n| --- | --- | --- |\n| Q1 | 412 | 388 |\n| Q2 | 530 | 402 |\n| Q3 | 611 | 455 |\n| Q4 | 702 | 497 |';

describe('what is inside Office files', () => {
  it.each(['chart.docx', 'chart-only.pptx', 'chart.xlsx', 'chart.odt', 'chart.odp', 'chart.ods'])(
    'reads the chart of %s into its title and a categories × series table',
    async (file) => {
      const chart = leaves(await parse(file)).filter((leaf) => leaf.metadata?.kind === 'chart');
      expect(chart.map((leaf) => leaf.type)).toEqual(['paragraph', 'table']);
      expect(chart[0]?.type === 'paragraph' && chart[0].text).toBe('Regional revenue 2025');
      expect(chart[1]?.type === 'table' && chart[1].text).toBe(REVENUE_TABLE);
      expect(chart[1]?.metadata?.title).toBe('Regional revenue 2025');
    },
  );

  it('places a Word chart where it is anchored, under its section', async () => {
    expect(outline((await parse('chart.docx')).children)).toEqual([
      [
        'section:Revenue',
        [
          'paragraph:The chart below shows revenue by region.',
          'paragraph:Regional revenue 2025',
          `table:${REVENUE_TABLE}`,
        ],
      ],
    ]);
  });

  it('numbers headings at every level from the list on each paragraph', async () => {
    expect(headings((await parse('numbered-headings.docx')).children)).toEqual([
      '1 Introduction',
      '1.1 Scope',
      '1.2 Terms',
      '2 Method',
      '2.1 Data',
      '2.1.1 Sources',
      '2.1.2 Checks',
      '3 Results',
    ]);
  });

  it('numbers headings from the numbering of their styles, in the formats and start values of the levels', async () => {
    expect(headings((await parse('style-numbered-headings.docx')).children)).toEqual([
      'I. Introduction',
      'I.a Scope',
      'I.b Terms',
      'II. Method',
      'II.a Data',
      'II.a.5 Sources',
      'II.a.6 Checks',
      'III. Results',
    ]);
  });

  it('renders equations as linear text in their paragraphs', async () => {
    const texts = leaves(await parse('equations.docx')).map((leaf) =>
      leaf.type === 'paragraph' ? leaf.text : '',
    );
    expect(texts).toEqual([
      'The roots of a quadratic equation are',
      'x=(-b±√(b²-4ac))/2a',
      'Energy is E=mc² and the sum of the first n integers is ∑_(i=1)^n i=(n(n+1))/2.',
      'The velocity v_max is measured in metres per second.',
    ]);
  });

  it('renders a PowerPoint equation (a14:m in the shape markup-compatibility chooses) as linear text', async () => {
    const texts = leaves(await parse('equations.pptx')).map((leaf) =>
      leaf.type === 'paragraph' ? leaf.text : '',
    );
    expect(texts).toEqual(['Einstein wrote E=mc²']);
  });

  it('reads the text boxes and grouped shapes drawn on a sheet, after its rows', async () => {
    const sheet = leaves(await parse('text-boxes.xlsx'));
    expect(sheet.map((leaf) => [leaf.metadata?.kind, leaf.type === 'paragraph' ? leaf.text : ''])).toEqual([
      ['rows', 'Item: Travel\nCost: 1200'],
      ['text-box', 'Figures are unaudited.\nSource: the finance team ledger'],
      ['text-box', 'Approved by Dana Whitfield'],
    ]);
  });

  it('reads text boxes, groups and SmartArt once each, after the paragraph they are anchored to', async () => {
    expect(outline((await parse('text-boxes.docx')).children)).toEqual([
      [
        'section:Logistics',
        [
          'paragraph:The year in short.',
          'paragraph:Warehouse capacity doubled in spring',
          'paragraph:Transport.',
          'paragraph:Deliveries left on time every week',
          'paragraph:Sourcing.',
          'paragraph:Suppliers in the north',
          'paragraph:Suppliers in the south',
          'paragraph:Quality.',
          'paragraph:Returns fell below two percent',
          'paragraph:Process.',
          'paragraph:Plan the order\nPick and pack\nShip to customer',
        ],
      ],
    ]);
  });

  it('keeps Word comments after their paragraph, marked as comments with their author', async () => {
    const found = leaves(await parse('comments.docx'));
    expect(found).toEqual([
      { type: 'paragraph', text: 'Freight cost rose by nine percent.' },
      {
        type: 'paragraph',
        text: 'Comment by Anna Berg: Check the freight invoice totals',
        metadata: { kind: 'comment', author: 'Anna Berg' },
      },
      { type: 'paragraph', text: 'Customs duties were flat.' },
      {
        type: 'paragraph',
        text: 'Comment by Ravi Shah: Source for the customs figure?',
        metadata: { kind: 'comment', author: 'Ravi Shah' },
      },
    ]);
  });

  it('keeps classic and modern PowerPoint comments (with replies) before the speaker notes', async () => {
    const found = leaves(await parse('comments.pptx')).map((leaf) => [
      leaf.metadata?.kind,
      leaf.type === 'paragraph' ? leaf.text : '',
    ]);
    expect(found).toEqual([
      [undefined, 'Four engineers join in March'],
      ['comment', 'Comment by Lena Park: Confirm the start dates with recruiting'],
      ['comment', 'Comment by Omar Diaz: Add the relocation costs'],
      ['comment', 'Comment by Omar Diaz: Done in the appendix'],
      ['notes', 'Mention the budget approval from December'],
    ]);
  });

  it('shows checkboxes as ☒/☐ and keeps the first page header and footer', async () => {
    expect(outline((await parse('checkboxes-first-page.docx')).children)).toEqual([
      'paragraph:Northwind Trading confidential',
      ['section:Audit checklist', ['paragraph:☒ Inventory counted', 'paragraph:☐ Contracts signed']],
      'paragraph:Issued by the audit office',
    ]);
  });
});

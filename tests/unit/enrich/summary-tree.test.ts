import { describe, expect, it } from 'vitest';
import { modelInput, offlineInput, type SummaryNode } from '#shared/enrich/summary-tree.ts';

function node(content: string, metadata: Record<string, unknown> | null = null): SummaryNode {
  return {
    id: content,
    parent_id: 'section',
    node_type: 'paragraph',
    depth: 2,
    title: null,
    content,
    summary: null,
    index_text: null,
    category: null,
    metadata,
    children: [],
    path: 'Costs',
    key: '',
  };
}

describe('summaries leave comments out', () => {
  const section: SummaryNode = {
    ...node('section'),
    node_type: 'section',
    content: null,
    children: [
      node('Freight cost rose by nine percent.'),
      node('Comment by Anna Berg: Check the freight invoice totals', {
        kind: 'comment',
        author: 'Anna Berg',
      }),
    ],
  };

  it('does not quote a comment in an offline summary', () => {
    expect(offlineInput(section)).toEqual(['Freight cost rose by nine percent.']);
  });

  it('does not give a comment to the model that summarizes', () => {
    const input = modelInput(section, { maxChars: 10_000, maxPassages: 10 });
    expect(input.text).toBe('[1] Freight cost rose by nine percent.');
    expect(input.passages.map((passage) => passage.id)).toEqual(['Freight cost rose by nine percent.']);
  });
});

describe('offlineInput', () => {
  it('leaves the empty cells of spreadsheet rows out of what the offline summary reads', () => {
    const sheet = {
      ...node('', null),
      node_type: 'section' as const,
      children: [
        node('Item: Pump\nColumn H: —\nColumn G: \nPrice: 12', {
          kind: 'rows',
          sheet: 'Sheet1',
          firstRow: 2,
          lastRow: 2,
        }),
        node('Column H: —\nColumn G: –', { kind: 'rows', sheet: 'Sheet1', firstRow: 3, lastRow: 3 }),
        node('The steps are as follows:', null),
      ],
    };
    expect(offlineInput(sheet)).toEqual(['Item: Pump\nPrice: 12', 'The steps are as follows:']);
  });
});

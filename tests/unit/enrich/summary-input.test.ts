import { describe, expect, it } from 'vitest';
import { offlineInput, type SummaryNode } from '#shared/enrich/summary-tree.ts';

const node = (content: string, metadata: Record<string, unknown> | null): SummaryNode => ({
  id: content,
  parent_id: 's',
  node_type: 'paragraph',
  depth: 2,
  title: null,
  content,
  summary: null,
  index_text: null,
  category: null,
  metadata,
  children: [],
  path: 'Sheet1',
  key: '',
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

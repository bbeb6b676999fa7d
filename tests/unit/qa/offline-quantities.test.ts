import { describe, expect, it } from 'vitest';
import type { Stage1Result } from '#shared/qa/documents/stage1.ts';
import { offlineSynthesis } from '#shared/qa/documents/stage2.ts';
import { decomposeOffline } from '#shared/qa/two-stage/decompose.ts';
import { judgeOffline } from '#shared/qa/two-stage/judge.ts';
import type { SearchHit } from '#shared/search/types.ts';

const ROWS =
  'Part: Titanium bolt\nWarehouse: Rotterdam\nQuantity: 1450\n\nPart: Copper washer\nWarehouse: Hamburg\nQuantity: 310';
const QUESTION = 'How many titanium bolts are in the Rotterdam warehouse?';

const hit = (content: string): SearchHit => ({
  nodeId: 'n1',
  documentId: 'd1',
  documentName: 'stock.xlsx',
  documentKey: 'uploads/stock.xlsx',
  version: 1,
  nodeType: 'paragraph',
  content,
  sectionPath: ['Inventory'],
  path: 'stock.xlsx > Inventory',
  breadcrumb: [],
  score: 1,
  ordinal: 1,
  metadata: {},
});

describe('judgeOffline', () => {
  it('extracts the quantity line when the user asked how many, though the sub-query no longer says so', () => {
    const [subquery] = decomposeOffline(QUESTION, 5);
    if (!subquery) throw new Error('no sub-query');
    expect(subquery.text).not.toMatch(/how many/i);
    const texts = (question?: string) =>
      judgeOffline(subquery, [hit(ROWS)], question).extracts.map((e) => e.text);
    expect(texts(QUESTION)).toContain('Quantity: 1450');
    expect(texts(QUESTION)).not.toContain('Quantity: 310');
    expect(texts()).not.toContain('Quantity: 1450');
  });
});

describe('offlineSynthesis', () => {
  const read = (quoted: { text: string; ref: string }[]): Stage1Result => ({
    documentId: 'd1',
    name: 'stock.xlsx',
    version: 1,
    shortId: 'abcd1234',
    blocks: [],
    reply: '',
    quoted,
  });

  it('judges the lines Stage 1 quoted from one block together, keeping the quantity of the matching row', () => {
    const answer = offlineSynthesis(QUESTION, [
      read([
        { text: 'Part: Titanium bolt', ref: 'DOC-abcd1234-PARA-2' },
        { text: 'Warehouse: Rotterdam', ref: 'DOC-abcd1234-PARA-2' },
        { text: 'Quantity: 1450', ref: 'DOC-abcd1234-PARA-2' },
      ]),
    ]);
    expect(answer).toContain('- "stock.xlsx" “Quantity: 1450” [DOC-abcd1234-PARA-2]');
  });

  it('cites an image by its alt text without presenting it as a quote', () => {
    const answer = offlineSynthesis('What does the floor plan show?', [
      read([{ text: 'Floor plan with the emergency exit', ref: 'DOC-abcd1234-IMAGE-1' }]),
    ]);
    expect(answer).toContain(
      '- "stock.xlsx" image: Floor plan with the emergency exit [DOC-abcd1234-IMAGE-1]',
    );
    expect(answer).not.toContain('“Floor plan');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvParser } from '#shared/parse/sheets/parse-workbook.ts';
import type { TreeNode } from '#shared/parse/types.ts';
import { planTable } from '#shared/qa/tables/plan.ts';
import { readSheetRows } from '#shared/qa/tables/read-rows.ts';
import type { Table } from '#shared/qa/tables/table.ts';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/tables/nba-champions-zh.csv');

/** The Chinese fixture read the way an answer reads it: parsed as a CSV, its row passages read back. */
async function champions(): Promise<Table> {
  const parsed = await csvParser.parse({ bytes: readFileSync(FIXTURE), filename: 'nba-champions-zh.csv' });
  const [sheet] = parsed.children;
  if (sheet?.type !== 'section') throw new Error('no sheet section');
  const passages = sheet.children.flatMap((node: TreeNode) =>
    node.type === 'paragraph' && node.metadata?.kind === 'rows'
      ? [{ content: node.text, metadata: node.metadata }]
      : [],
  );
  return readSheetRows(sheet.title, (sheet.metadata?.columns as string[]) ?? [], passages);
}

describe('planTable over a table with Chinese headers', () => {
  it('looks up a cell of the row a Chinese name picks', async () => {
    expect(planTable('湖人赢得过多少次总冠军？', await champions())).toMatchObject({
      shape: 'lookup',
      result: ['17'],
    });
  });

  it('counts the rows a Chinese condition keeps, whatever the measure word', async () => {
    const table = await champions();
    expect(planTable('东部有多少支球队？', table)).toMatchObject({ shape: 'count', result: ['3'] });
    expect(planTable('有几支球队的总冠军次数超过5次？', table)).toMatchObject({
      shape: 'count',
      result: ['4'],
    });
  });

  it('answers the most and the least', async () => {
    const table = await champions();
    expect(planTable('哪支球队的总冠军次数最多？', table)).toMatchObject({
      shape: 'highest',
      result: ['波士顿凯尔特人'],
    });
    expect(planTable('哪支球队总冠军最少？', table)).toMatchObject({
      shape: 'lowest',
      result: ['迈阿密热火'],
    });
  });

  it('sums over the rows of a condition', async () => {
    expect(planTable('西部球队总冠军一共多少次？', await champions())).toMatchObject({
      shape: 'sum',
      result: ['29'],
    });
  });

  it('answers a Chinese yes/no question', async () => {
    const table = await champions();
    expect(planTable('湖人是否属于西部？', table)).toMatchObject({ shape: 'yes-no', result: ['是'] });
    expect(planTable('凯尔特人属于西部吗？', table)).toMatchObject({ shape: 'yes-no', result: ['否'] });
  });
});

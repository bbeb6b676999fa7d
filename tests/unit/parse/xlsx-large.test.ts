import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParagraphNode } from '#shared/parse/types.ts';
import { parseXlsx } from '#shared/parse/xlsx/parse-xlsx.ts';

const ROWS = 50_000;

/** Writes a large sheet with exceljs's streaming writer, so the fixture itself stays cheap. */
async function writeLargeWorkbook(path: string): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(['Order', 'Customer', 'Amount', 'Shipped']).commit();
  for (let i = 1; i <= ROWS; i++) {
    sheet.addRow([i, `customer ${i % 997}`, i * 1.5, new Date(Date.UTC(2024, 0, 1 + (i % 365)))]).commit();
  }
  sheet.commit();
  await workbook.commit();
}

describe('parseXlsx on a large sheet', () => {
  let dir = '';
  let bytes = new Uint8Array();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'xlsx-large-'));
    const path = join(dir, 'large.xlsx');
    await writeLargeWorkbook(path);
    bytes = new Uint8Array(await readFile(path));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads every row of a 50,000-row sheet once, in order, in bounded paragraphs', async () => {
    const doc = await parseXlsx({ bytes, filename: 'large.xlsx' });
    const sheet = doc.children[0];
    if (sheet?.type !== 'section') throw new Error('no sheet section');
    expect(sheet.title).toBe('Orders');
    const paragraphs = sheet.children as ParagraphNode[];
    let next = 2;
    let rows = 0;
    for (const paragraph of paragraphs) {
      expect(paragraph.text.length).toBeLessThanOrEqual(800);
      expect(paragraph.metadata?.firstRow).toBe(next);
      rows += paragraph.text.split('\n\n').length;
      next = Number(paragraph.metadata?.lastRow) + 1;
    }
    expect(rows).toBe(ROWS);
    expect(next).toBe(ROWS + 2);
    expect(paragraphs.at(-1)?.text.split('\n\n').at(-1)).toBe(
      `Order: ${ROWS}\nCustomer: customer ${ROWS % 997}\nAmount: ${ROWS * 1.5}\nShipped: 2024-12-26`,
    );
  });
});

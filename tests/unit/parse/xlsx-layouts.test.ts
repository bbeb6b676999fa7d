import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ParagraphNode, SectionNode } from '#shared/parse/types.ts';
import { parseXlsx } from '#shared/parse/xlsx/parse-xlsx.ts';
import { rawWorkbook } from './xlsx-fixtures.ts';

function texts(node: unknown): string[] {
  return ((node as SectionNode).children as ParagraphNode[]).map((p) => p.text);
}

const ROWS =
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>45352</v></c></row>';

describe('parseXlsx on workbooks laid out by other writers', () => {
  it('reads shared strings and date styles stored after the sheets, every time', async () => {
    const bytes = rawWorkbook([{ name: 'Data', rows: ROWS }], {
      sharedStrings: ['Item', 'Due', 'Pump'],
      partsLast: true,
    });
    for (let run = 0; run < 5; run++) {
      const doc = await parseXlsx({ bytes, filename: 'late.xlsx' });
      expect(texts(doc.children[0])).toEqual(['Item: Pump\nDue: 2024-03-01']);
    }
  });

  it('finds sheets named by absolute relationship targets, as openpyxl writes them', async () => {
    const bytes = rawWorkbook([{ name: 'Inventory', rows: ROWS, target: '/xl/worksheets/sheet1.xml' }], {
      sharedStrings: ['Item', 'Due', 'Pump'],
    });
    const doc = await parseXlsx({ bytes, filename: 'openpyxl.xlsx' });
    expect(doc.children.map((node) => (node as SectionNode).title)).toEqual(['Inventory']);
    expect(texts(doc.children[0])).toEqual(['Item: Pump\nDue: 2024-03-01']);
  });

  it('skips a chart sheet with a warning and keeps the others', async () => {
    const bytes = rawWorkbook(
      [
        { name: 'Data', rows: ROWS },
        { name: 'Chart', chart: true, target: 'chartsheets/sheet1.xml' },
      ],
      { sharedStrings: ['Item', 'Due', 'Pump'] },
    );
    const doc = await parseXlsx({ bytes, filename: 'chart.xlsx' });
    expect(doc.children.map((node) => (node as SectionNode).title)).toEqual(['Data']);
    expect(doc.warnings).toEqual(['sheet "Chart" was skipped: it is a chart sheet']);
  });

  it('keeps multi-byte characters whole across the chunks of a large inflated part', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('表');
    sheet.addRow(['名称', '说明']);
    for (let i = 1; i <= 3000; i++) sheet.addRow([`产品${i}`, `这是第${i}行的中文说明，包含标点符号。`]);
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const doc = await parseXlsx({ bytes, filename: 'cjk.xlsx' });
    const rows = texts(doc.children[0]).flatMap((text) => text.split('\n\n'));
    expect(rows).toHaveLength(3000);
    rows.forEach((row, i) => {
      expect(row).toBe(`名称: 产品${i + 1}\n说明: 这是第${i + 1}行的中文说明，包含标点符号。`);
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { ParagraphNode, SectionNode } from '#shared/parse/types.ts';
import { parseXlsx } from '#shared/parse/xlsx/parse-xlsx.ts';
import { chooseLayout, type SheetRow } from '#shared/parse/xlsx/sheet-layout.ts';
import { keepTypedResults } from '#shared/parse/xlsx/typed-results.ts';
import { rawWorkbook, workbookInput } from './xlsx-fixtures.ts';

function sheetOf(doc: { children: unknown[] }): SectionNode {
  return doc.children[0] as SectionNode;
}

function texts(sheet: SectionNode): string[] {
  return (sheet.children as ParagraphNode[]).map((p) => p.text);
}

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

async function collect(chunks: string[]): Promise<string> {
  let out = '';
  for await (const text of keepTypedResults(
    (async function* () {
      yield* chunks;
    })(),
  ))
    out += text;
  return out;
}

describe('parseXlsx cached results', () => {
  it('shows cached formula errors as written and boolean results as TRUE / FALSE', async () => {
    const rows = [
      `<row r="1">${inline('A1', 'Item')}${inline('B1', 'Value')}</row>`,
      `<row r="2">${inline('A2', 'ratio')}<c r="B2" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>`,
      `<row r="3">${inline('A3', 'lookup')}<c r="B3" t="e"><f t="shared" si="0"/><v>#N/A</v></c></row>`,
      `<row r="4">${inline('A4', 'check')}<c r="B4" t="b"><f>A1=A1</f><v>1</v></c></row>`,
      `<row r="5">${inline('A5', 'flag')}<c r="B5" t="b"><f>1=2</f><v>0</v></c></row>`,
      `<row r="6">${inline('A6', 'plain')}<c r="B6" t="b"><v>0</v></c></row>`,
      `<row r="7">${inline('A7', 'sum')}<c r="B7"><f>1+1</f><v>2</v></c></row>`,
    ].join('');
    const doc = await parseXlsx({ bytes: rawWorkbook([{ name: 'S', rows }]), filename: 'r.xlsx' });
    expect(texts(sheetOf(doc))).toEqual([
      [
        'Item: ratio\nValue: #DIV/0!',
        'Item: lookup\nValue: #N/A',
        'Item: check\nValue: TRUE',
        'Item: flag\nValue: FALSE',
        'Item: plain\nValue: FALSE',
        'Item: sum\nValue: 2',
      ].join('\n\n'),
    ]);
  });

  it('rewrites a typed cell split across chunks, and leaves other cells alone', async () => {
    const xml =
      '<row><c r="A1" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="B1" s="1"/><c r="C1"><f>1</f><v>1</v></c></row>';
    const expected =
      '<row><c r="A1" t="e"><v>#DIV/0!</v></c><c r="B1" s="1"/><c r="C1"><f>1</f><v>1</v></c></row>';
    for (let at = 1; at < xml.length; at++) {
      expect(await collect([xml.slice(0, at), xml.slice(at)])).toBe(expected);
    }
  });
});

describe('chooseLayout', () => {
  const row = (number: number, ...cells: (string | number)[]): SheetRow => ({
    number,
    cells: cells.map((value, i) => ({
      column: i + 1,
      text: String(value),
      label: typeof value === 'string',
    })),
  });

  it('takes one-cell title rows above the first wide text row as notes', () => {
    expect(chooseLayout([row(1, 'Report'), row(3, 'Name', 'Score'), row(4, 'Ann', 9)])).toEqual({
      kind: 'table',
      notes: 1,
      header: 1,
    });
  });

  it('gives no header when the first wide row holds numbers', () => {
    expect(chooseLayout([row(1, 'Readings'), row(2, 1, 2.5), row(3, 2, 3.5)])).toEqual({
      kind: 'plain',
      notes: 1,
    });
  });

  it('takes a label followed by a run of years as the header (years as columns)', () => {
    expect(
      chooseLayout([
        row(1, 'Kind', 2019, 2020, 2021, 2022),
        row(2, 'Freshwater ducks', 1210, 1185, 1302, 1347),
      ]),
    ).toEqual({ kind: 'table', notes: 0, header: 0 });
    expect(chooseLayout([row(1, 'Census', 2000, 1990, 1980), row(2, 'Town', 4100, 3900, 3550)])).toEqual({
      kind: 'table',
      notes: 0,
      header: 0,
    });
  });

  it('gives no header to a label over amounts that do not step like years', () => {
    expect(chooseLayout([row(1, 'Sales', 1500, 1600, 1700), row(2, 'Costs', 900, 950, 990)])).toEqual({
      kind: 'plain',
      notes: 0,
    });
    expect(chooseLayout([row(1, 'Freshwater ducks', 1210, 1185, 1302)])).toEqual({ kind: 'plain', notes: 0 });
  });

  it('reads label: value pairs as a form', () => {
    expect(chooseLayout([row(1, 'Name:', 'Ann'), row(2, 'Date:', 45000), row(3, 'Notes')])).toEqual({
      kind: 'form',
    });
  });
});

describe('parseXlsx sheet layouts', () => {
  it('keeps a title row as a note and takes the table header below it', async () => {
    const input = await workbookInput((workbook) => {
      const sheet = workbook.addWorksheet('Scores');
      sheet.getCell('A1').value = 'Quarterly scores';
      sheet.mergeCells('A1:C1');
      sheet.addRow([]);
      sheet.addRow(['Name', 'Team', 'Score']);
      sheet.addRow(['Ann', 'Red', 9]);
    });
    const sheet = sheetOf(await parseXlsx(input));
    expect(sheet.children).toEqual([
      { type: 'paragraph', text: 'Quarterly scores', metadata: { kind: 'note', sheet: 'Scores', row: 1 } },
      {
        type: 'paragraph',
        text: 'Name: Ann\nTeam: Red\nScore: 9',
        metadata: { kind: 'rows', sheet: 'Scores', firstRow: 4, lastRow: 4 },
      },
    ]);
    expect(sheet.metadata).toMatchObject({ headerRow: 3, columns: ['Name', 'Team', 'Score'] });
  });

  it('reads a form-like sheet as label: value lines, not under its first row', async () => {
    const input = await workbookInput((workbook) => {
      const sheet = workbook.addWorksheet('Form');
      sheet.addRow(['Expense claim']);
      sheet.addRow(['Name:', 'Ann Lee', 'Date:', new Date(Date.UTC(2024, 4, 2))]);
      sheet.addRow(['Department:', 'Sales']);
      sheet.addRow(['Total', 120.5]);
    });
    const sheet = sheetOf(await parseXlsx(input));
    expect(sheet.metadata).toEqual({ sheet: 'Form', layout: 'form' });
    expect(texts(sheet)).toEqual([
      'Expense claim\n\nName: Ann Lee\nDate: 2024-05-02\n\nDepartment: Sales\n\nTotal: 120.5',
    ]);
  });

  it('reads label and amount rows as a form, even with amounts written as text', async () => {
    const input = await workbookInput((workbook) => {
      workbook
        .addWorksheet('Summary')
        .addRows([
          ['Financial Summary'],
          ['Total Revenue', '$500,000'],
          ['Total Expenses', '$300,000'],
          ['Margin', '40%'],
        ]);
    });
    const sheet = sheetOf(await parseXlsx(input));
    expect(sheet.metadata).toEqual({ sheet: 'Summary', layout: 'form' });
    expect(texts(sheet)).toEqual([
      'Financial Summary\n\nTotal Revenue: $500,000\n\nTotal Expenses: $300,000\n\nMargin: 40%',
    ]);
  });

  it('drops the colon of a header cell from its column name', async () => {
    const input = await workbookInput((workbook) => {
      workbook.addWorksheet('Vessels').addRows([
        ['Vessel name:', 'Cargo:'],
        ['Aurora', 'Coal'],
      ]);
    });
    expect(texts(sheetOf(await parseXlsx(input)))).toEqual(['Vessel name: Aurora\nCargo: Coal']);
  });

  it('names columns by letter when the sheet has no text header', async () => {
    const input = await workbookInput((workbook) => {
      workbook.addWorksheet('Numbers').addRows([
        [1, 2],
        [3, 4],
      ]);
    });
    const sheet = sheetOf(await parseXlsx(input));
    expect(sheet.metadata).toEqual({ sheet: 'Numbers' });
    expect(texts(sheet)).toEqual(['Column A: 1\nColumn B: 2\n\nColumn A: 3\nColumn B: 4']);
  });
});

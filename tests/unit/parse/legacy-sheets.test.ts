import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { XLSX } from '#shared/parse/sheets/sheetjs.ts';
import type { ParsedDocument, SectionNode } from '#shared/parse/types.ts';
import { encodeDoubleByte, encodeGbk, utf8 } from './fixtures.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/legacy');

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

/** Each sheet as its title, its columns and the text of its leaves. */
function sheets(doc: ParsedDocument) {
  return (doc.children as SectionNode[]).map((section) => ({
    title: section.title,
    columns: section.metadata?.columns,
    text: section.children.map((child) => ('text' in child ? child.text : '')),
  }));
}

/** What LibreOffice wrote from the budget.xlsx of scripts/fixtures/legacy-office.ts. */
const BUDGET = [
  {
    title: 'Budget',
    columns: ['Item', 'Amount', 'Due'],
    text: [
      'FY2026 budget',
      'Item: Servers\nAmount: 500000\nDue: 2026-03-31\n\nItem: Training\nAmount: 42000\nDue: 2026-06-30',
    ],
  },
  {
    title: 'Staff',
    columns: ['Name', 'Office'],
    text: ['Name: Ana\nOffice: Lisbon\n\nName: 李雷\nOffice: 上海'],
  },
];

describe('workbooks SheetJS reads, as the same tree as .xlsx', () => {
  it('reads an Excel 97-2003 .xls: a section per sheet, header columns, dates, the merged title once', async () => {
    const bytes = fixture('budget.xls');
    expect(detectFileType(bytes, 'budget.xls')).toBe('xls');
    const doc = await parse(bytes, 'budget.xls');
    expect(doc.title).toBe('budget');
    expect(sheets(doc)).toEqual(BUDGET);
  });

  it('reads an OpenDocument spreadsheet and a binary .xlsb the same way', async () => {
    const ods = fixture('budget.ods');
    expect(detectFileType(ods, 'budget.ods')).toBe('ods');
    expect(sheets(await parse(ods, 'budget.ods'))).toEqual(BUDGET);
    const book = XLSX.read(fixture('budget.xls'), { type: 'array', cellNF: true });
    const xlsb = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsb' }) as ArrayBuffer);
    expect(detectFileType(xlsb, 'budget.xlsb')).toBe('xls');
    expect(sheets(await parse(xlsb, 'budget.xlsb'))).toEqual(BUDGET);
  });

  it("keeps SheetJS's notes on an .ods's conditional number formats off the console", async () => {
    // LibreOffice writes its accounting formats (branches for value()>0, <0, =0) into every .ods;
    // SheetJS printed a note per branch, 12 console.error lines for this file.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const doc = await parse(fixture('budget.ods'), 'budget.ods');
      expect(printed).not.toHaveBeenCalled();
      expect(doc.warnings).toEqual([]);
    } finally {
      printed.mockRestore();
    }
  });

  it('reads a CSV as one sheet named after the file, cells as written', async () => {
    const csv = utf8('name,amount,code\nAna,12,0012\n"Lee, Jr.",30,0040\n');
    expect(detectFileType(csv, 'staff.csv')).toBe('csv');
    expect(sheets(await parse(csv, 'staff.csv'))).toEqual([
      {
        title: 'staff',
        columns: ['name', 'amount', 'code'],
        text: ['name: Ana\namount: 12\ncode: 0012\n\nname: Lee, Jr.\namount: 30\ncode: 0040'],
      },
    ]);
    const tsv = utf8('城市\t人数\n上海\t40\n');
    expect(sheets(await parse(tsv, 'offices.tsv'))[0]?.text).toEqual(['城市: 上海\n人数: 40']);
  });

  it('fails a damaged workbook and a CSV in an unknown encoding with the reason', async () => {
    const cut = fixture('budget.xls').subarray(0, 3000);
    await expect(parse(cut, 'cut.xls')).rejects.toThrow(/cut\.xls.*(damaged|could not be read)/);
    const latin1 = new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x4a, 0x6f, 0xe3, 0x6f, 0x0a]);
    const error = await parse(latin1, 'names.csv').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect((error as Error).message).toMatch(/names\.csv is not valid UTF-8 text/);
  });

  it('reads a CSV that Chinese Excel wrote in GBK, with a warning naming the encoding', async () => {
    const gbk = encodeGbk('项目,金额,负责人\r\n服务器,120000,张伟\r\n');
    expect(detectFileType(gbk, '预算.csv')).toBe('csv');
    const doc = await parse(gbk, '预算.csv');
    expect(sheets(doc)[0]).toMatchObject({
      columns: ['项目', '金额', '负责人'],
      text: ['项目: 服务器\n金额: 120000\n负责人: 张伟'],
    });
    expect(doc.warnings).toContain(
      '预算.csv is not UTF-8; it was read as GBK (GB18030), the encoding of Chinese Excel exports',
    );
  });

  it('reads a CSV that Traditional Chinese Excel wrote in Big5, with a warning naming the encoding', async () => {
    const big5 = encodeDoubleByte(
      '項目,金額,負責人\r\n伺服器,120000,陳志明\r\n台北辦公室租金,56000,林美玲\r\n',
      'big5',
    );
    // Not UTF-8, and not GB2312-like: Big5 trail bytes 0x40-0x7E.
    expect(new TextDecoder('gbk').decode(big5)).not.toContain('項目');
    const doc = await parse(big5, '預算.csv');
    expect(sheets(doc)[0]).toMatchObject({
      columns: ['項目', '金額', '負責人'],
      text: [
        '項目: 伺服器\n金額: 120000\n負責人: 陳志明\n\n項目: 台北辦公室租金\n金額: 56000\n負責人: 林美玲',
      ],
    });
    expect(doc.warnings).toContain(
      '預算.csv is not UTF-8; it was read as Big5, the encoding of Traditional Chinese Excel exports',
    );
  });

  it('reads GBK text as GBK, not Big5, and still refuses Latin-1 with accented capitals', async () => {
    const gbk = await parse(encodeGbk('项目,金额\r\n服务器,120000\r\n'), 'a.csv');
    expect(sheets(gbk)[0]?.columns).toEqual(['项目', '金额']);
    // Latin-1 "ÀÉ" pairs: Big5 leads would be 0xC0 (frequent range) but 0xC9 is not.
    const latin1 = new Uint8Array([
      ...utf8('name\n'),
      0xc0,
      0x6c,
      0x76,
      0x61,
      0x72,
      0x6f,
      0x0a,
      0xc9,
      0x6c,
      0x69,
      0x65,
      0x0a,
    ]);
    await expect(parse(latin1, 'names.csv')).rejects.toThrow(/names\.csv is not valid UTF-8 text/);
  });
});

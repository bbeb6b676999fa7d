import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { readSharedStrings, type SharedStringsReader } from '#shared/parse/xlsx/shared-strings.ts';

function reader(): SharedStringsReader {
  return new ExcelJS.stream.xlsx.WorkbookReader('', {
    sharedStrings: 'cache',
  }) as unknown as SharedStringsReader;
}

const XML = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>alpha</t></si><si><r><t>be</t></r><r><t>ta</t></r></si><si><t>gamma</t></si></sst>`;

describe('readSharedStrings', () => {
  it('reads plain and rich-text strings in order', async () => {
    const strings = await readSharedStrings(reader(), Readable.from([XML]), 'a.xlsx');
    expect(strings).toMatchObject(['alpha', { richText: [{ text: 'be' }, { text: 'ta' }] }, 'gamma']);
  });

  it('refuses a workbook past the number of strings it may hold', async () => {
    const error = await readSharedStrings(reader(), Readable.from([XML]), 'many.xlsx', {
      maxStrings: 2,
      maxChars: 1000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect((error as Error).message).toBe(
      'many.xlsx has more shared strings than can be held in memory (at most 2 strings and 1,000 characters)',
    );
  });

  it('refuses a workbook past the characters it may hold', async () => {
    await expect(
      readSharedStrings(reader(), Readable.from([XML]), 'long.xlsx', { maxStrings: 10, maxChars: 8 }),
    ).rejects.toThrow(/^long\.xlsx has more shared strings than can be held in memory/);
  });
});

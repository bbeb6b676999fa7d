import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import { describe, expect, it } from 'vitest';
import { parseDocx } from '#shared/parse/docx/index.ts';
import { parseXlsx } from '#shared/parse/xlsx/parse-xlsx.ts';
import { rewriteDocx, text } from './docx-fixtures.ts';
import {
  billionLaughs,
  handle,
  lieAboutSize,
  oleBytes,
  randomBytes,
  reasonOf,
  smallDocx,
  withEntries,
} from './hostile-fixtures.ts';

async function smallXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Data').addRows([
    ['k', 'v'],
    ['a', 1],
  ]);
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('hostile Office archives', () => {
  it('refuses a zip bomb by its compression ratio before inflating it', async () => {
    const bytes = rewriteDocx(await smallDocx(), (name, data) =>
      name === 'word/document.xml' ? new Uint8Array(8 * 1024 * 1024) : data,
    );
    expect(bytes.length).toBeLessThan(100_000);
    expect(await reasonOf(bytes, 'bomb.docx')).toMatch(
      /^bomb\.docx is not a readable Word document: word\/document\.xml expands \d+ times \(8 MB\), which only a zip bomb does$/,
    );
  });

  it('refuses a Word entry that inflates past the size its archive declares', async () => {
    const bomb = rewriteDocx(await smallDocx(), (name, data) =>
      name === 'word/document.xml' ? new Uint8Array(8 * 1024 * 1024) : data,
    );
    const bytes = lieAboutSize(bomb, 'word/document.xml', 2000);
    expect(await reasonOf(bytes, 'liar.docx')).toBe(
      'liar.docx is not a readable Word document: word/document.xml inflates to more than the 2000 bytes its archive declares, which only a zip bomb does',
    );
  });

  it('stops reading a worksheet that inflates past the size its archive declares', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    for (let i = 0; i < 2000; i++) sheet.addRow([i, 'the same words on every row']);
    const honest = new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
    const bytes = lieAboutSize(honest, 'xl/worksheets/sheet1.xml', 4096);
    expect(await reasonOf(bytes, 'liar.xlsx')).toMatch(
      /^liar\.xlsx is damaged: the workbook could not be read \(xl\/worksheets\/sheet1\.xml inflates past the 4096 bytes it declares\); open it in the program that made it and save it again/,
    );
  });

  it('refuses an archive with more entries than limits.maxZipEntries', async () => {
    const extra = Array.from({ length: 60 }, (_, i) => ({ name: `customXml/item${i}.bin`, data: 'x' }));
    const bytes = withEntries(await smallDocx(), extra);
    expect(await reasonOf(bytes, 'many.docx', { maxZipEntries: 50 })).toMatch(
      /^many\.docx is not a readable Word document: the archive has \d+ entries \(at most 50 are read; limits\.maxZipEntries\)$/,
    );
  });

  it('refuses an archive that expands past limits.maxUncompressedBytes', async () => {
    const big = 'Plain words that compress only moderately well. '.repeat(50_000);
    const bytes = rewriteDocx(await smallXlsx(), (name, data) => (name === 'docProps/app.xml' ? big : data));
    expect(
      await reasonOf(bytes, 'big.xlsx', {
        maxUncompressedBytes: 1024 * 1024,
        // Repeated text also trips the ratio check; this test is about the total alone.
        maxCompressionRatio: 1e6,
      }),
    ).toBe(
      'big.xlsx is not a readable Excel workbook: the archive expands to 2 MB (at most 1 MB; limits.maxUncompressedBytes)',
    );
  });

  it('refuses a DTD with nested entities in a Word body without expanding it', async () => {
    const bytes = rewriteDocx(await smallDocx(), (name, data) =>
      name === 'word/document.xml' ? billionLaughs(text(data).replace(/^<\?xml[^>]*\?>\s*/, '')) : data,
    );
    const started = Date.now();
    expect(await reasonOf(bytes, 'lol.docx')).toBe(
      'lol.docx is not a readable Word document: its part word/document.xml starts with a document type declaration (<!DOCTYPE>), which Word, Excel and PowerPoint never write; DropQA refuses such files because the entities a declaration defines can expand a few bytes into gigabytes (the "billion laughs" attack). If you trust the file, open it in its Office program and save it again (that drops the declaration); otherwise do not use it',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a DTD in a worksheet part, whichever part it is in', async () => {
    const bytes = rewriteDocx(await smallXlsx(), (name, data) =>
      name === 'xl/worksheets/sheet1.xml'
        ? billionLaughs(text(data).replace(/^<\?xml[^>]*\?>\s*/, ''))
        : data,
    );
    expect(await reasonOf(bytes, 'lol.xlsx')).toMatch(
      /^lol\.xlsx is not a readable Excel workbook: its part xl\/worksheets\/sheet1\.xml starts with a document type declaration .* save it again/,
    );
  });

  it('refuses a DTD in a slide, before the PowerPoint parser reads it', async () => {
    const pptx = new PptxGenJS();
    pptx.addSlide().addText('Hello', { x: 1, y: 1, w: 4, h: 1 });
    const deck = new Uint8Array((await pptx.write({ outputType: 'nodebuffer' })) as Buffer);
    const bytes = rewriteDocx(deck, (name, data) =>
      name === 'ppt/slides/slide1.xml' ? billionLaughs(text(data).replace(/^<\?xml[^>]*\?>\s*/, '')) : data,
    );
    expect(await reasonOf(bytes, 'lol.pptx')).toMatch(
      /^lol\.pptx is not a readable PowerPoint presentation: its part ppt\/slides\/slide1\.xml starts with a document type declaration .* save it again/,
    );
  });

  it('refuses a DTD hidden behind a long comment in the prolog', async () => {
    const padding = `<!--${' '.repeat(3_000_000)}-->`;
    const bytes = rewriteDocx(await smallDocx(), (name, data) =>
      name === 'word/styles.xml'
        ? padding + billionLaughs(text(data).replace(/^<\?xml[^>]*\?>\s*/, ''))
        : data,
    );
    expect(await reasonOf(bytes, 'padded.docx', { maxCompressionRatio: 1e9 })).toMatch(
      /^padded\.docx is not a readable Word document: word\/styles\.xml starts with an XML prolog longer than any Office file writes$/,
    );
  });

  it('says a password-protected Office file is password-protected', async () => {
    expect(await reasonOf(oleBytes(true), 'secret.docx')).toBe(
      'secret.docx is password-protected (an encrypted Office document); save it without a password',
    );
    // The parsers say it too when handed the bytes directly.
    await expect(parseDocx({ bytes: oleBytes(true), filename: 'secret.docx' })).rejects.toThrow(
      /password-protected/,
    );
    await expect(parseXlsx({ bytes: oleBytes(true), filename: 'secret.xlsx' })).rejects.toThrow(
      /password-protected/,
    );
  });

  it('names a legacy .doc, .xls or .ppt whose container is broken as damaged, with what to do', async () => {
    for (const [name, kind] of [
      ['old.doc', 'Word 97-2003 document'],
      ['old.xls', 'Excel 97-2003 or binary workbook'],
      ['old.ppt', 'PowerPoint 97-2003 presentation'],
    ] as const) {
      const reason = await reasonOf(oleBytes(false), name);
      expect(reason).toMatch(
        new RegExp(
          `^${name.replace('.', '\\.')} is damaged: its OLE container is truncated or corrupted, so it is not a valid ${kind} \\(`,
        ),
      );
      expect(reason).toMatch(
        /; open it in the program that made it and save it again \(or export it anew\), or upload an intact copy$/,
      );
      expect(reason).not.toMatch(/save it as/);
    }
  });

  it('refuses a truncated archive as damaged', async () => {
    const docx = await smallDocx();
    expect(await reasonOf(docx.subarray(0, Math.floor(docx.length * 0.6)), 'cut.docx')).toBe(
      'cut.docx is damaged: its ZIP archive is truncated or corrupted, so it is not a valid Word document (no end of central directory); open it in the program that made it and save it again (or export it anew), or upload an intact copy',
    );
  });

  it('refuses random bytes under an Office name as not that document', async () => {
    expect(await reasonOf(randomBytes(20_000), 'noise.xlsx')).toBe(
      'noise.xlsx is named .xlsx but contains binary data, not an Excel workbook',
    );
  });

  it('refuses an empty file under any name', async () => {
    expect(await reasonOf(new Uint8Array(), 'empty.docx')).toBe('empty.docx: the file is empty');
  });

  it('still parses an ordinary document after all of these', async () => {
    const doc = await handle(await smallDocx('Still here.'), 'fine.docx');
    expect(doc.children).toEqual([{ type: 'paragraph', text: 'Still here.' }]);
  });
});

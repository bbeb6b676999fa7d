import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { parseTimeoutError, withDeadline } from '#shared/parse/deadline.ts';
import { detectFileType } from '#shared/parse/detect.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { parsers } from '#shared/parse/registry.ts';
import type { ParsedDocument, ParseInput, Parser } from '#shared/parse/types.ts';
import { handle, reasonOf, smallDocx } from './hostile-fixtures.ts';

/** A one-page PDF written with pdfkit. */
async function pdfBytes(line: string): Promise<Uint8Array> {
  const doc = new PDFDocument();
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  doc.text(line);
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

async function workbook(rows: number): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Rows');
  sheet.addRow(['n', 'text']);
  for (let i = 1; i <= rows; i++) sheet.addRow([i, `row ${i}`]);
  return new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
}

/** Swaps a registered parser for the length of one test. */
async function withParser<T>(parser: Parser, run: () => Promise<T>): Promise<T> {
  const saved = parsers[parser.type];
  parsers[parser.type] = parser;
  try {
    return await run();
  } finally {
    if (saved) parsers[parser.type] = saved;
    else delete parsers[parser.type];
  }
}

const fakeDocument = (text: string): ParsedDocument => ({
  title: 'fake',
  metadata: {},
  children: [{ type: 'paragraph', text }],
  images: [],
  warnings: [],
});

describe('parse limits', () => {
  it('refuses a workbook with more rows than limits.maxRows', async () => {
    expect(await reasonOf(await workbook(150), 'rows.xlsx', { maxRows: 100 })).toBe(
      'rows.xlsx has more than 100 rows (limits.maxRows)',
    );
  });

  it('reads a workbook within limits.maxRows whole', async () => {
    const doc = await handle(await workbook(99), 'rows.xlsx', { maxRows: 100 });
    expect(JSON.stringify(doc.children)).toContain('n: 99\\ntext: row 99');
  });

  it('fails a parse that runs past limits.parseTimeoutMs, and the XLSX parser stops its work', async () => {
    const bytes = await workbook(5_000);
    const xlsx = parsers.xlsx as Parser;
    let inner: Promise<ParsedDocument> | undefined;
    const spy: Parser = {
      type: 'xlsx',
      parse: (input) => {
        inner = xlsx.parse(input);
        return inner;
      },
    };
    const started = Date.now();
    const reason = await withParser(spy, () => reasonOf(bytes, 'slow.xlsx', { parseTimeoutMs: 30 }));
    expect(reason).toBe('slow.xlsx took longer than 30 ms to parse (limits.parseTimeoutMs)');
    expect(Date.now() - started).toBeLessThan(1500);
    // The parser itself gave up with the same reason instead of reading on to the end.
    await expect(inner).rejects.toThrow(reason);
  });

  it('stops a parser that checks its signal between pages, and the next file parses', async () => {
    let pagesRead = 0;
    const slow: Parser = {
      type: 'pdf',
      parse: async ({ signal }: ParseInput) => {
        for (let page = 0; page < 1000; page++) {
          signal?.throwIfAborted();
          pagesRead++;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return fakeDocument('all pages');
      },
    };
    const input = { bytes: new Uint8Array([1]), filename: 'endless.pdf' };
    const limits = { ...DEFAULT_PARSE_LIMITS, parseTimeoutMs: 50 };
    await withParser(slow, async () => {
      const error = await parseDocument({ ...input, limits }, 'pdf').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedDocumentError);
      expect((error as Error).message).toBe(
        'endless.pdf took longer than 50 ms to parse (limits.parseTimeoutMs)',
      );
      const readAtTimeout = pagesRead;
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(pagesRead - readAtTimeout).toBeLessThanOrEqual(1);
    });
    const doc = await handle(await smallDocx('Next file.'), 'next.docx');
    expect(doc.children).toEqual([{ type: 'paragraph', text: 'Next file.' }]);
  });

  it('times out a parser that never checks, without an unhandled rejection when it fails later', async () => {
    const stubborn = async () => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      throw new Error('late failure');
    };
    await expect(withDeadline('x.pdf', 10, stubborn)).rejects.toThrow(
      'x.pdf took longer than 10 ms to parse (limits.parseTimeoutMs)',
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
  });

  it('writes the limit in seconds when it is a second or more', () => {
    expect(parseTimeoutError('big.docx', 1500).message).toBe(
      'big.docx took longer than 1.5 s to parse (limits.parseTimeoutMs)',
    );
    expect(parseTimeoutError('big.docx', 120_000).message).toContain('longer than 120 s');
  });
});

describe('mislabeled files', () => {
  it('parses a Word document named .pdf as Word, with a warning', async () => {
    const bytes = await smallDocx('Really a Word file.');
    expect(detectFileType(bytes, 'report.pdf')).toBe('docx');
    const doc = await handle(bytes, 'report.pdf');
    expect(doc.children).toEqual([{ type: 'paragraph', text: 'Really a Word file.' }]);
    expect(doc.warnings).toContain('report.pdf is named .pdf but is a Word document; it was read as one');
  });

  it('parses a PDF named .docx with the PDF parser, with a warning', async () => {
    const bytes = await pdfBytes('Really a PDF file.');
    expect(detectFileType(bytes, 'scan.docx')).toBe('pdf');
    const doc = await handle(bytes, 'scan.docx');
    expect(JSON.stringify(doc.children)).toContain('Really a PDF file.');
    expect(doc.warnings).toContain('scan.docx is named .docx but is a PDF document; it was read as one');
  });

  it('gives no warning when the name agrees or says nothing', async () => {
    const bytes = await smallDocx();
    expect((await handle(bytes, 'a.docx')).warnings).toEqual([]);
    expect((await handle(bytes, 'upload')).warnings).toEqual([]);
  });
});

import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { parseOffice } from 'officeparser';
import { openPdf } from '#shared/parse/pdf/pdfjs.ts';
import type { FileType } from '#shared/parse/types.ts';

/**
 * Each format's underlying library extracting plain text on its own: the baseline the parse
 * benchmark compares whole-tree parsing with. Returns the number of characters extracted.
 */
export const rawExtractors: Partial<Record<FileType, (bytes: Uint8Array) => Promise<number>>> = {
  docx: async (bytes) => {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return result.value.length;
  },
  // exceljs's own streaming reader, every cell's text: the same class of reader the parser uses.
  xlsx: async (bytes) => {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
    });
    let chars = 0;
    for await (const sheet of reader) {
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        row.eachCell((cell) => {
          chars += cell.text.length;
        });
      }
    }
    return chars;
  },
  pptx: async (bytes) => {
    const ast = await parseOffice(Buffer.from(bytes));
    const { value } = await ast.to('text');
    return String(value).length;
  },
  pdf: async (bytes) => {
    const pdf = await openPdf(bytes, 'bench.pdf');
    let chars = 0;
    try {
      for (let page = 1; page <= pdf.numPages; page++) {
        const content = await (await pdf.getPage(page)).getTextContent();
        for (const item of content.items) if ('str' in item) chars += item.str.length;
      }
    } finally {
      await pdf.destroy();
    }
    return chars;
  },
};

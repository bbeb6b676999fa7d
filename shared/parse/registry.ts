import type { FileType, ParsedDocument, ParseInput, Parser } from './types.ts';

/**
 * A parser whose module is imported on its first document: the parsers' modules (pdf.js, ExcelJS,
 * the OLE and OOXML readers) cost ~1.4 s of a server's or CLI's start, and most runs read a few
 * formats.
 */
function lazy(type: FileType, load: () => Promise<Parser>): Parser {
  let loaded: Promise<Parser> | undefined;
  return {
    type,
    parse(input: ParseInput): Promise<ParsedDocument> {
      loaded ??= load();
      return loaded.then((parser) => parser.parse(input));
    },
  };
}

/** The parser for each supported type; formats without one are refused until their issue lands. */
export const parsers: Partial<Record<FileType, Parser>> = {
  docx: lazy('docx', async () => (await import('./docx/index.ts')).docxParser),
  md: lazy('md', async () => (await import('./markdown.ts')).markdownParser),
  pdf: lazy('pdf', async () => (await import('./pdf/index.ts')).pdfParser),
  pptx: lazy('pptx', async () => (await import('./pptx/index.ts')).pptxParser),
  txt: lazy('txt', async () => (await import('./text.ts')).textParser),
  xlsx: lazy('xlsx', async () => (await import('./xlsx/parse-xlsx.ts')).xlsxParser),
  xls: lazy('xls', async () => (await import('./sheets/parse-workbook.ts')).xlsParser),
  doc: lazy('doc', async () => (await import('./doc/parse-doc.ts')).docParser),
  ppt: lazy('ppt', async () => (await import('./ppt/parse-ppt.ts')).pptParser),
  html: lazy('html', async () => (await import('./html/parse-html.ts')).htmlParser),
  ods: lazy('ods', async () => (await import('./sheets/parse-workbook.ts')).odsParser),
  csv: lazy('csv', async () => (await import('./sheets/parse-workbook.ts')).csvParser),
  eml: lazy('eml', async () => (await import('./email/parse-eml.ts')).emlParser),
  msg: lazy('msg', async () => (await import('./email/parse-msg.ts')).msgParser),
  odt: lazy('odt', async () => (await import('./opendocument/parse-odf.ts')).odtParser),
  odp: lazy('odp', async () => (await import('./opendocument/parse-odf.ts')).odpParser),
  rtf: lazy('rtf', async () => (await import('./rtf/parse-rtf.ts')).rtfParser),
  image: lazy('image', async () => (await import('./image-document.ts')).imageParser),
};

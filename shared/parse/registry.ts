import { docParser } from './doc/parse-doc.ts';
import { docxParser } from './docx/index.ts';
import { emlParser } from './email/parse-eml.ts';
import { msgParser } from './email/parse-msg.ts';
import { htmlParser } from './html/parse-html.ts';
import { imageParser } from './image-document.ts';
import { markdownParser } from './markdown.ts';
import { odpParser, odtParser } from './opendocument/parse-odf.ts';
import { pdfParser } from './pdf/index.ts';
import { pptParser } from './ppt/parse-ppt.ts';
import { pptxParser } from './pptx/index.ts';
import { rtfParser } from './rtf/parse-rtf.ts';
import { csvParser, odsParser, xlsParser } from './sheets/parse-workbook.ts';
import { textParser } from './text.ts';
import type { FileType, Parser } from './types.ts';
import { xlsxParser } from './xlsx/parse-xlsx.ts';

/** The parser for each supported type; formats without one are refused until their issue lands. */
export const parsers: Partial<Record<FileType, Parser>> = {
  docx: docxParser,
  md: markdownParser,
  pdf: pdfParser,
  pptx: pptxParser,
  txt: textParser,
  xlsx: xlsxParser,
  xls: xlsParser,
  doc: docParser,
  ppt: pptParser,
  html: htmlParser,
  ods: odsParser,
  csv: csvParser,
  eml: emlParser,
  msg: msgParser,
  odt: odtParser,
  odp: odpParser,
  rtf: rtfParser,
  image: imageParser,
};

export { parsePdf, pdfParser } from './parse-pdf.ts';

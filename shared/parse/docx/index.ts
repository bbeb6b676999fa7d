export { docxParser, parseDocx } from './parse-docx.ts';
export { MAMMOTH_OPTIONS } from './read-model.ts';

export { parsePptx, pptxParser } from './parse-pptx.ts';

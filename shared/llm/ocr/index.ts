export { type ClosableOcrEngine, createOcrEngine } from './create.ts';
export { TesseractOcr, type TesseractOptions } from './tesseract.ts';
export { TextractOcr, type TextractOptions } from './textract.ts';

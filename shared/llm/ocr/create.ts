import { join } from 'node:path';
import type { Config } from '#shared/config/index.ts';
import type { OcrEngine } from '#shared/llm/types.ts';
import { TesseractOcr } from './tesseract.ts';
import { TextractOcr, type TextractOptions } from './textract.ts';

/** An OCR engine that can release its worker or sockets. */
export type ClosableOcrEngine = OcrEngine & { close(): Promise<void> };

/**
 * The OCR engine `providers.ocr.kind` names: `offline` (tesseract.js, traineddata from npm packages,
 * links under `<dataDir>/ocr`), `textract` (region from `textract.region`, else `storage.region`) or
 * `none` (undefined: images keep their alt text).
 *
 * @example const ocr = createOcrEngine(config); // ... await ocr?.close();
 */
export function createOcrEngine(
  config: Config,
  textract: Partial<TextractOptions> = {},
): ClosableOcrEngine | undefined {
  const { kind, languages } = config.providers.ocr;
  if (kind === 'none') return undefined;
  if (kind === 'textract') return new TextractOcr({ region: config.storage.region, ...textract });
  return new TesseractOcr({ languages, cacheDir: join(config.dataDir, 'ocr') });
}

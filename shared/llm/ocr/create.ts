import { join } from 'node:path';
import type { Config } from '#shared/config/index.ts';
import type { OcrEngine } from '#shared/llm/types.ts';
import type { TextractOptions } from './textract.ts';

/** An OCR engine that can release its worker or sockets. */
export type ClosableOcrEngine = OcrEngine & { close(): Promise<void> };

/** Loads the engine's module on the first image: tesseract.js and the Textract client cost seconds to import. */
class LazyOcr implements ClosableOcrEngine {
  private engine: Promise<ClosableOcrEngine> | undefined;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<ClosableOcrEngine>,
  ) {}

  async recognize(image: Uint8Array, mime: string) {
    this.engine ??= this.load();
    return (await this.engine).recognize(image, mime);
  }

  async close() {
    if (this.engine) await (await this.engine).close();
  }
}

/**
 * The OCR engine `providers.ocr.kind` names: `offline` (tesseract.js, traineddata from npm packages,
 * links under `<dataDir>/ocr`), `textract` (region from `textract.region`, else `storage.region`) or
 * `none` (undefined: images keep their alt text). Nothing is loaded until the first image.
 *
 * @example const ocr = createOcrEngine(config); // ... await ocr?.close();
 */
export function createOcrEngine(
  config: Config,
  textract: Partial<TextractOptions> = {},
): ClosableOcrEngine | undefined {
  const { kind, languages } = config.providers.ocr;
  if (kind === 'none') return undefined;
  if (kind === 'textract') {
    return new LazyOcr('textract', async () => {
      const { TextractOcr } = await import('./textract.ts');
      return new TextractOcr({ region: config.storage.region, ...textract });
    });
  }
  return new LazyOcr('tesseract', async () => {
    const { TesseractOcr } = await import('./tesseract.ts');
    return new TesseractOcr({ languages, cacheDir: join(config.dataDir, 'ocr') });
  });
}

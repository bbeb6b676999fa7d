import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { createWorker, type Worker } from 'tesseract.js';
import { ConfigError, ProviderError, reasonOf } from '#shared/errors.ts';
import type { OcrEngine } from '#shared/llm/types.ts';

const require = createRequire(import.meta.url);
/** Languages whose traineddata ships in an installed `@tesseract.js-data/<code>` package. */
const SHIPPED = new Set(['chi_sim', 'eng']);
/** The LSTM-only integer models: a fraction of the size of the full ones, same accuracy class. */
const MODEL_FOLDER = '4.0.0_best_int';
/** A worker left idle this long is terminated, so a finished CLI run is not kept alive by it. */
const IDLE_MS = 5_000;

export interface TesseractOptions {
  /** `+`-separated traineddata codes, e.g. `chi_sim+eng` (config providers.ocr.languages). */
  languages: string;
  /** A writable folder for the language links (e.g. `<dataDir>/ocr`). */
  cacheDir: string;
}

/**
 * Offline OCR with tesseract.js: the traineddata comes from the `@tesseract.js-data/*` npm packages
 * on disk (never downloaded). One worker, created on first use, reused for every image, terminated
 * when idle or on `close()`.
 *
 * @example
 * const ocr = new TesseractOcr({ languages: 'chi_sim+eng', cacheDir: '.dropqa/ocr' });
 * const { text } = await ocr.recognize(pngBytes, 'image/png');
 */
export class TesseractOcr implements OcrEngine {
  readonly name = 'tesseract';
  private readonly languages: string[];
  private worker: Promise<Worker> | undefined;
  private idle: NodeJS.Timeout | undefined;
  private pending = 0;
  /** Recognitions run one at a time: the worker is single-threaded and shared. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Rejects when the current worker thread dies (see `watch`). */
  private crashed: Promise<never> = new Promise<never>(() => {});

  constructor(private readonly options: TesseractOptions) {
    const languages = options.languages.split('+').filter(Boolean);
    const missing = languages.filter((lang) => !SHIPPED.has(lang));
    if (languages.length === 0 || missing.length > 0) {
      throw new ConfigError(
        `providers.ocr.languages '${options.languages}': only ${[...SHIPPED].join(', ')} are installed`,
      );
    }
    // With chi_sim first, tesseract.js 7 fails to load the second language; order only sets the
    // primary model, both are used for every image.
    this.languages = languages.sort((a, b) => (a === 'eng' ? -1 : b === 'eng' ? 1 : 0));
  }

  async recognize(image: Uint8Array, mime: string): Promise<{ text: string; confidence?: number }> {
    this.pending += 1;
    clearTimeout(this.idle);
    const run = this.queue.then(async () => {
      const worker = await this.start();
      const { data } = await Promise.race([worker.recognize(Buffer.from(image)), this.crashed]);
      return { text: data.text.trim(), confidence: data.confidence / 100 };
    });
    this.queue = run.catch(() => undefined);
    try {
      return await run;
    } catch (error) {
      throw new ProviderError(`tesseract could not read the ${mime} image: ${reasonOf(error)}`, {
        cause: error,
      });
    } finally {
      this.pending -= 1;
      if (this.pending === 0) {
        this.idle = setTimeout(() => void this.close(), IDLE_MS);
        this.idle.unref();
      }
    }
  }

  /** Terminates the worker (a later `recognize` starts a new one). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private start(): Promise<Worker> {
    this.worker ??= createWorker(this.languages, 1, {
      langPath: this.languageFolder(),
      cachePath: this.options.cacheDir,
      cacheMethod: 'none',
      gzip: true,
      // Without a handler tesseract.js rethrows a failed job ("Error attempting to read image") from
      // its message listener, outside any promise: the process exits. The job's promise still
      // rejects, so recognize() reports it; this only stops the rethrow.
      errorHandler: () => {},
    }).then(
      (worker) => {
        this.watch(worker);
        return worker;
      },
      (error: unknown) => {
        this.worker = undefined;
        throw error;
      },
    );
    return this.worker;
  }

  /**
   * A worker thread that dies (a WASM abort on a hostile image) emits `error` on its Worker; unheard,
   * that ends the process. Heard here: the running recognition fails, the next one starts a new worker.
   */
  private watch(worker: Worker): void {
    const thread = (worker as unknown as { worker?: NodeWorker }).worker;
    let fail: (error: Error) => void = () => {};
    this.crashed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.crashed.catch(() => undefined);
    thread?.once('error', (error) => {
      if (this.worker) this.worker = undefined;
      fail(new Error(`the OCR worker stopped: ${reasonOf(error)}`));
      void worker.terminate().catch(() => undefined);
    });
  }

  /** tesseract.js reads every language from one folder: link each package's file into one. */
  private languageFolder(): string {
    const folder = join(this.options.cacheDir, 'lang');
    mkdirSync(folder, { recursive: true });
    for (const lang of this.languages) {
      const source = join(
        dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)),
        MODEL_FOLDER,
        `${lang}.traineddata.gz`,
      );
      try {
        symlinkSync(source, join(folder, `${lang}.traineddata.gz`));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return folder;
  }
}

import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as NodeWorker } from 'node:worker_threads';
import { createWorker, type Worker } from 'tesseract.js';
import { ConfigError, ProviderError, reasonOf } from '#shared/errors.ts';
import type { OcrEngine, OcrReading } from '#shared/llm/types.ts';
import { bestReading } from './best-reading.ts';
import { ocrInput, turnedPng } from './raster.ts';

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

/** Chinese characters and punctuation, which tesseract separates by spaces ("数据 平台 年 度"). */
const HAN_GAP =
  /([\p{Script=Han}\u3000-\u303f\uff00-\uffef]) +(?=[\p{Script=Han}\u3000-\u303f\uff00-\uffef])/gu;

/** OCR text with the spaces tesseract puts between Chinese characters taken out: Chinese has none. */
function joinHan(text: string): string {
  return text.replace(HAN_GAP, '$1');
}

/** A worker for one set of language models, and the promise that rejects when its thread dies. */
interface WorkerSlot {
  worker: Promise<Worker>;
  crashed: Promise<never>;
}

/**
 * Offline OCR with tesseract.js: the traineddata comes from the `@tesseract.js-data/*` npm packages
 * on disk (never downloaded). Each image is read with all the configured languages; a reading that
 * is not confident is tried again with each language alone (the script's own model) and with the
 * picture turned (a page scanned sideways), and the best reading wins (`bestReading`), block by
 * block with tesseract's confidences. One worker per language set, created on first use, reused
 * for every image, terminated when idle or on `close()`.
 *
 * @example
 * const ocr = new TesseractOcr({ languages: 'chi_sim+eng', cacheDir: '.dropqa/ocr' });
 * const { text, blocks, turn } = await ocr.recognize(pngBytes, 'image/png');
 */
export class TesseractOcr implements OcrEngine {
  readonly name = 'tesseract';
  private readonly languages: string[];
  private readonly workers = new Map<string, WorkerSlot>();
  private idle: NodeJS.Timeout | undefined;
  private pending = 0;
  /** Recognitions run one at a time: the workers are single-threaded and share the CPU. */
  private queue: Promise<unknown> = Promise.resolve();

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

  async recognize(original: Uint8Array, mime: string): Promise<OcrReading> {
    this.pending += 1;
    clearTimeout(this.idle);
    const run = this.queue.then(async () => {
      const image = (await ocrInput(original, mime)).bytes;
      return bestReading(async (turn, languages) => {
        const slot = this.slot(languages);
        const worker = await Promise.race([slot.worker, slot.crashed]);
        const bytes = turn === 0 ? image : await turnedPng(image, turn);
        const { data } = await Promise.race([
          worker.recognize(Buffer.from(bytes), {}, { text: true, blocks: true }),
          slot.crashed,
        ]);
        const blocks = (data.blocks ?? []).map((block) => ({
          text: joinHan(block.text.trim()),
          confidence: block.confidence / 100,
        }));
        return { text: joinHan(data.text.trim()), confidence: data.confidence / 100, blocks };
      }, this.languages);
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

  /** Terminates the workers (a later `recognize` starts new ones). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const slots = [...this.workers.values()];
    this.workers.clear();
    for (const slot of slots) await (await slot.worker.catch(() => undefined))?.terminate();
  }

  /** The worker for a `+`-joined set of the configured languages, started on first use. */
  private slot(languages: string): WorkerSlot {
    const known = this.workers.get(languages);
    if (known) return known;
    let fail: (error: Error) => void = () => {};
    const crashed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    crashed.catch(() => undefined);
    const worker = createWorker(languages.split('+'), 1, {
      langPath: this.languageFolder(),
      cachePath: this.options.cacheDir,
      cacheMethod: 'none',
      gzip: true,
      // Without a handler tesseract.js rethrows a failed job ("Error attempting to read image") from
      // its message listener, outside any promise: the process exits. The job's promise still
      // rejects, so recognize() reports it; this only stops the rethrow.
      errorHandler: () => {},
    }).then(
      (started) => {
        this.watch(languages, started, fail);
        return started;
      },
      (error: unknown) => {
        this.workers.delete(languages);
        throw error;
      },
    );
    const slot = { worker, crashed };
    this.workers.set(languages, slot);
    return slot;
  }

  /**
   * A worker thread that dies (a WASM abort on a hostile image) emits `error` on its Worker; unheard,
   * that ends the process. Heard here: the running recognition fails, the next one starts a new worker.
   */
  private watch(languages: string, worker: Worker, fail: (error: Error) => void): void {
    const thread = (worker as unknown as { worker?: NodeWorker }).worker;
    thread?.once('error', (error) => {
      this.workers.delete(languages);
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

import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';

type Pdfjs = typeof import('pdfjs-dist');

let loading: Promise<Pdfjs> | undefined;

function packageRoot(): string {
  return path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

/**
 * pdf.js's Node build takes DOMMatrix from its optional `@napi-rs/canvas` dependency and fails to load
 * without one. Only rendering uses it, which the parser never does: when that native package is
 * missing (a platform npm has no binary for), an identity stand-in lets text and images still be read.
 */
function ensureDomMatrix(): void {
  if ('DOMMatrix' in globalThis) return;
  try {
    createRequire(path.join(packageRoot(), 'package.json')).resolve('@napi-rs/canvas');
  } catch {
    Object.assign(globalThis, {
      DOMMatrix: class DOMMatrix {
        a = 1;
        b = 0;
        c = 0;
        d = 1;
        e = 0;
        f = 0;
      },
    });
  }
}

/**
 * The legacy build (the one that runs on Node 20) bundles core-js, which replaces
 * `Array.prototype.push` process-wide with a polyfill several times slower, for an edge case (arrays
 * with a read-only length) no code here meets: every push in pdf.js and in the parser paid for it.
 * Its worker is loaded here too (pdf.js then runs it in this thread, as it would by itself on Node),
 * so that the native method can be put back once both have run their polyfills.
 */
async function importPdfjs(): Promise<Pdfjs> {
  const push = Array.prototype.push;
  const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as Pdfjs;
  await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  Object.defineProperty(Array.prototype, 'push', {
    value: push,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return pdfjs;
}

/** pdf.js is large: it is imported the first time a PDF is parsed, not when the registry loads. */
export function loadPdfjs(): Promise<Pdfjs> {
  if (!loading) {
    ensureDomMatrix();
    loading = importPdfjs();
  }
  return loading;
}

/** The package's own folders (fonts, CMaps, wasm decoders), so nothing is ever fetched. */
function packageFolders(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string; iccUrl: string } {
  const root = packageRoot();
  const folder = (name: string) => `${path.join(root, name)}${path.sep}`;
  return {
    standardFontDataUrl: folder('standard_fonts'),
    cMapUrl: folder('cmaps'),
    wasmUrl: folder('wasm'),
    iccUrl: folder('iccs'),
  };
}

function readableFailure(filename: string, error: unknown): UnsupportedDocumentError {
  const name =
    error instanceof Error || (typeof error === 'object' && error !== null) ? (error as Error).name : '';
  if (name === 'PasswordException') {
    return new UnsupportedDocumentError(
      `${filename} is password-protected; remove the password and upload it again`,
      {
        cause: error,
      },
    );
  }
  if (name === 'InvalidPDFException') {
    return new UnsupportedDocumentError(
      `${filename} is not a readable PDF (corrupt or truncated): ${reasonOf(error)}`,
      {
        cause: error,
      },
    );
  }
  return new UnsupportedDocumentError(`${filename} could not be opened as a PDF: ${reasonOf(error)}`, {
    cause: error,
  });
}

/**
 * Opens a PDF with pdf.js, offline: no eval, no system fonts, the package's standard fonts and CMaps
 * from disk (so CJK text extracts), errors only. The bytes are copied: pdf.js takes ownership of its
 * buffer. Password-protected and unreadable files fail with an `UnsupportedDocumentError`.
 */
export async function openPdf(bytes: Uint8Array, filename: string): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    ...packageFolders(),
    cMapPacked: true,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw readableFailure(filename, error);
  }
}

import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { DropQAError, ValidationError } from '../errors.ts';
import { cleanPartHeaders } from './part-headers.ts';

/** A file of a multipart request, read whole (it is within `maxFileBytes`). */
export interface UploadedFile {
  /** The name the client gave, as sent. */
  name: string;
  bytes: Uint8Array;
  contentType?: string;
}

/** A file (or the whole request) over its size limit: answered 413 as soon as the limit is passed. */
export class PayloadTooLargeError extends DropQAError {
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

/**
 * Reads the files of a `multipart/form-data` body (fields `files` or `file`) as it streams in, with
 * busboy: a file is only held once it has arrived, and reading stops (the request is cut) as soon
 * as one file passes `maxFileBytes` or all of them `maxTotalBytes`, so an oversized upload never
 * sits in memory whole and nothing of it reaches the bucket.
 *
 * Control characters in a part's header (a NUL in one file's name) are dropped first
 * (`cleanPartHeaders`), so such a file is judged on its own name and the others are unaffected.
 *
 * @throws ValidationError for a body that is not well-formed multipart; PayloadTooLargeError.
 */
export async function readMultipartFiles(
  request: Request,
  limits: { maxFileBytes: number; maxTotalBytes: number },
): Promise<UploadedFile[]> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ValidationError('the body must be multipart/form-data with one or more "files"');
  }
  if (!request.body) throw new ValidationError('the multipart body is empty');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limits.maxTotalBytes) {
    throw new PayloadTooLargeError(`Upload exceeds ${limits.maxTotalBytes} bytes (limits.maxUploadBytes)`);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': type },
      defParamCharset: 'utf8',
      // The CLI sends folder-relative names (`zh/plan.md`); uploadKey cleans them.
      preservePath: true,
      limits: { fileSize: limits.maxFileBytes, fieldSize: 64 * 1024 },
    });
  } catch (error) {
    throw new ValidationError(`malformed multipart request: ${(error as Error).message}`);
  }
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  const raw = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  // A bad byte in one part's header (a NUL in a file name) must not refuse the other files.
  const body = boundary ? raw.pipe(cleanPartHeaders(boundary[1] ?? boundary[2] ?? '')) : raw;
  return new Promise<UploadedFile[]>((resolve, reject) => {
    const files: UploadedFile[] = [];
    let total = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      body.unpipe(parser);
      raw.destroy();
      body.destroy();
      reject(error);
    };
    parser.on('file', (field, stream, info) => {
      if (field !== 'files' && field !== 'file') {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('error', (error: Error) =>
        fail(new ValidationError(`malformed multipart request: ${error.message}`)),
      );
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        total += chunk.length;
        if (total > limits.maxTotalBytes) {
          fail(
            new PayloadTooLargeError(`Upload exceeds ${limits.maxTotalBytes} bytes (limits.maxUploadBytes)`),
          );
          return;
        }
        chunks.push(chunk);
      });
      stream.on('limit', () =>
        fail(
          new PayloadTooLargeError(
            `${info.filename || 'a file'} is larger than ${limits.maxFileBytes} bytes (limits.maxFileBytes); nothing was stored`,
          ),
        ),
      );
      stream.on('end', () => {
        if (failed) return;
        files.push({
          name: info.filename ?? '',
          bytes: new Uint8Array(Buffer.concat(chunks, size)),
          contentType:
            info.mimeType && info.mimeType !== 'application/octet-stream' ? info.mimeType : undefined,
        });
      });
    });
    parser.on('error', (error: Error) =>
      fail(new ValidationError(`malformed multipart request: ${error.message}`)),
    );
    parser.on('close', () => {
      if (!failed) resolve(files);
    });
    for (const stream of new Set([raw, body])) {
      stream.on('error', (error) =>
        fail(new ValidationError(`the upload was interrupted: ${error.message}`)),
      );
    }
    body.pipe(parser);
  });
}

import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { DropQAError, type ErrorReason, isOutOfSpace, OutOfSpaceError, ValidationError } from '../errors.ts';
import { removeStaged, type StagedFile, stageStream } from '../storage/staging.ts';
import { cleanPartHeaders } from './part-headers.ts';

/** A file of a multipart request, staged on disk (see `stageStream`); the caller removes it. */
export interface UploadedFile {
  /** The name the client gave, as sent. */
  name: string;
  staged: StagedFile;
  contentType?: string;
}

/** A file (or the whole request) over its size limit: answered 413 as soon as the limit is passed. */
export class PayloadTooLargeError extends DropQAError {
  constructor(message: string, reason: ErrorReason) {
    super('payload_too_large', message, { reason });
  }
}

/**
 * Reads the files of a `multipart/form-data` body (fields `files` or `file`) as it streams in, with
 * busboy, writing each into the staging folder `dir` while hashing it (`stageStream`): no file is
 * ever held in memory. Reading stops (the request is cut) as soon as one file passes `maxFileBytes`
 * or all of them `maxTotalBytes`, and every file staged for the request, the partial one included,
 * is removed before the error is thrown: nothing of a refused upload stays on disk or reaches the
 * bucket.
 *
 * Control characters in a part's header (a NUL in one file's name) are dropped first
 * (`cleanPartHeaders`), so such a file is judged on its own name and the others are unaffected.
 *
 * @throws ValidationError for a body that is not well-formed multipart; PayloadTooLargeError;
 *   OutOfSpaceError when the staging folder's disk is full.
 */
export async function readMultipartFiles(
  request: Request,
  limits: { maxFileBytes: number; maxTotalBytes: number },
  dir: string,
): Promise<UploadedFile[]> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ValidationError('the body must be multipart/form-data with one or more "files"');
  }
  if (!request.body) throw new ValidationError('the multipart body is empty');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limits.maxTotalBytes) throw tooLarge(limits);
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
  const staging: Promise<UploadedFile>[] = [];
  const open = new Set<Readable>();
  let failure: Error | undefined;
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    body.unpipe(parser);
    raw.destroy();
    body.destroy();
    // Files being written stop here; stageStream removes what they wrote.
    for (const stream of open) stream.destroy();
  };
  const parsed = new Promise<void>((done) => {
    let total = 0;
    parser.on('file', (field, stream, info) => {
      if (field !== 'files' && field !== 'file') {
        stream.resume();
        return;
      }
      open.add(stream);
      // A full disk while staging destroys the part's stream with that error: not the client's fault.
      stream.on('error', (error: Error) =>
        fail(
          isOutOfSpace(error)
            ? new OutOfSpaceError({ cause: error })
            : new ValidationError(`malformed multipart request: ${error.message}`),
        ),
      );
      stream.on('limit', () =>
        fail(
          new PayloadTooLargeError(
            `${info.filename || 'a file'} is larger than ${limits.maxFileBytes} bytes (limits.maxFileBytes); nothing was stored`,
            { reason: 'file_too_large', params: { bytes: limits.maxFileBytes } },
          ),
        ),
      );
      const contentType =
        info.mimeType && info.mimeType !== 'application/octet-stream' ? info.mimeType : undefined;
      const staged = stageStream(dir, stream, (bytes) => {
        total += bytes;
        if (total > limits.maxTotalBytes) fail(tooLarge(limits));
      }).finally(() => open.delete(stream));
      staging.push(staged.then((file) => ({ name: info.filename ?? '', staged: file, contentType })));
    });
    parser.on('error', (error: Error) =>
      fail(new ValidationError(`malformed multipart request: ${error.message}`)),
    );
    parser.on('close', done);
    for (const stream of new Set([raw, body])) {
      stream.on('error', (error) =>
        fail(new ValidationError(`the upload was interrupted: ${error.message}`)),
      );
      // Cut by fail(): busboy never closes then.
      stream.on('close', () => {
        if (failure) done();
      });
    }
    body.pipe(parser);
  });
  await parsed;
  const results = await Promise.allSettled(staging);
  const files = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const broken = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure || broken) {
    await removeStaged(files.map((file) => file.staged));
    throw failure ?? broken?.reason;
  }
  return files;
}

function tooLarge(limits: { maxTotalBytes: number }): PayloadTooLargeError {
  return new PayloadTooLargeError(`Upload exceeds ${limits.maxTotalBytes} bytes (limits.maxUploadBytes)`, {
    reason: 'upload_too_large',
    params: { bytes: limits.maxTotalBytes },
  });
}

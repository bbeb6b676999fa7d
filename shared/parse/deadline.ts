import { UnsupportedDocumentError } from '#shared/errors.ts';

/** setTimeout fires at once for delays over 2^31 - 1 ms; a longer limit is as good as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function duration(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`;
}

/** The reason a parse that ran out of time fails with. */
export function parseTimeoutError(filename: string, timeoutMs: number): UnsupportedDocumentError {
  return new UnsupportedDocumentError(
    `${filename} took longer than ${duration(timeoutMs)} to parse (limits.parseTimeoutMs)`,
  );
}

/**
 * Runs a parse under a time limit. `run` receives an `AbortSignal` that aborts with the readable
 * timeout error once `timeoutMs` has passed; parsers check it between sheets, rows, pages and slides
 * (`signal.throwIfAborted()`), so the CPU work stops too instead of running on in the background.
 * The returned promise rejects with that error as soon as the time is up, even if the parser is
 * slow to notice; the parser's own late failure is then swallowed rather than left unhandled.
 *
 * A worker thread would stop a parser that never checks, but parse inputs carry a callback
 * (`readRelative`) that cannot cross a thread, the Lambda bundle would need a second entry point,
 * and each worker pays the load time of mammoth / exceljs / pdfjs again: see docs/limits.md.
 *
 * @example await withDeadline('a.xlsx', 120_000, (signal) => parser.parse({ ...input, signal }))
 */
export async function withDeadline<T>(
  filename: string,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const signal = outer ? AbortSignal.any([controller.signal, outer]) : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        const error = parseTimeoutError(filename, timeoutMs);
        controller.abort(error);
        reject(error);
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
  });
  const work = run(signal);
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    // Whichever lost the race must not surface later as an unhandled rejection.
    work.catch(() => {});
    expired.catch(() => {});
  }
}

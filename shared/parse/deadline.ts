import { withTimeout } from '#shared/async/timeout.ts';
import { UnsupportedDocumentError } from '#shared/errors.ts';

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
 * Runs a parse under a time limit (`withTimeout`). `run` receives an `AbortSignal` that aborts with
 * the readable timeout error once `timeoutMs` has passed; parsers check it between sheets, rows,
 * pages and slides (`signal.throwIfAborted()`), so the CPU work stops too instead of running on in
 * the background. The returned promise rejects with that error as soon as the time is up, even if
 * the parser is slow to notice.
 *
 * A worker thread would stop a parser that never checks, but parse inputs carry a callback
 * (`readRelative`) that cannot cross a thread, the Lambda bundle would need a second entry point,
 * and each worker pays the load time of mammoth / exceljs / pdfjs again: see docs/limits.md.
 *
 * @example await withDeadline('a.xlsx', 120_000, (signal) => parser.parse({ ...input, signal }))
 */
export function withDeadline<T>(
  filename: string,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  return withTimeout(timeoutMs, run, () => parseTimeoutError(filename, timeoutMs), outer);
}

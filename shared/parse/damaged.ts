import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { describeType, readableTypeNamedBy } from './file-types.ts';
import { DamagedZipError } from './zip.ts';

/** What a person can do about a file that is truncated or corrupted. */
export const DAMAGED_ADVICE =
  'open it in the program that made it and save it again (or export it anew), or upload an intact copy';

/**
 * Whether an error is the JavaScript engine's own (a `TypeError`, `RangeError` or `ReferenceError`):
 * a reader tripped over data it did not expect, and its message ("Cannot read properties of
 * undefined (reading 'length')") tells the person who sent the file nothing.
 */
export function isEngineError(error: unknown): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
}

/**
 * `<file> is damaged: <what> (<detail>); open it in the program that made it and save it again
 * (or export it anew), or upload an intact copy`. The detail is the cause's own reason, kept for
 * whoever investigates, unless it is an engine error's message (`isEngineError`), which stays in
 * the error's `cause` only; the advice is what the person who sent the file can do.
 *
 * @example damagedFile('cut.docx', 'its ZIP archive is truncated or corrupted', error)
 */
export function damagedFile(filename: string, what: string, cause?: unknown): UnsupportedDocumentError {
  const detail =
    cause instanceof DamagedZipError
      ? cause.detail
      : cause === undefined || isEngineError(cause)
        ? ''
        : reasonOf(cause);
  return new UnsupportedDocumentError(
    `${filename} is damaged: ${what}${detail ? ` (${detail})` : ''}; ${DAMAGED_ADVICE}`,
    { cause },
  );
}

/** What a file's name promises, without the article ("Word document"), else `fallback`. */
export function kindNamedBy(filename: string, fallback: string): string {
  const named = readableTypeNamedBy(filename);
  return named ? describeType(named).replace(/^an? /, '') : fallback;
}

/**
 * `damagedFile` for a container that would not open: "its <container> is truncated or corrupted, so
 * it is not a valid <what the name promises, else fallbackKind>".
 *
 * @example damagedContainer('cut.docx', 'ZIP archive', 'Office file', error)
 */
export function damagedContainer(
  filename: string,
  container: string,
  fallbackKind: string,
  cause: unknown,
): UnsupportedDocumentError {
  const kind = kindNamedBy(filename, fallbackKind);
  return damagedFile(
    filename,
    `its ${container} is truncated or corrupted, so it is not a valid ${kind}`,
    cause,
  );
}

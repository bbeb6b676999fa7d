import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { describeType, readableTypeNamedBy } from './file-types.ts';
import { DamagedZipError } from './zip.ts';

/** What a person can do about a file that is truncated or corrupted. */
export const DAMAGED_ADVICE =
  'open it in the program that made it and save it again (or export it anew), or upload an intact copy';

/**
 * `<file> is damaged: <what> (<detail>); open it in the program that made it and save it again
 * (or export it anew), or upload an intact copy`. The detail is the cause's own reason, kept for
 * whoever investigates; the advice is what the person who sent the file can do.
 *
 * @example damagedFile('cut.docx', 'its ZIP archive is truncated or corrupted', error)
 */
export function damagedFile(filename: string, what: string, cause?: unknown): UnsupportedDocumentError {
  const detail = cause instanceof DamagedZipError ? cause.detail : cause === undefined ? '' : reasonOf(cause);
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

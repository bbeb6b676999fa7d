import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';
import { uploadPrefix } from '../access/collection-of-key.ts';
import { isDocumentName } from '../parse/file-types.ts';
import { unsupportedReason } from '../parse/unsupported.ts';

/** Pictures a Markdown file or web page may link to: stored beside it, ingested on their own only when none does. */
const ASSET_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.svg', '.tif', '.tiff']);
/** Documents whose links make a picture of the folder an asset. */
const LINKING = /\.(md|markdown|mdown|mkd|html?|xhtml)$/i;
/** How much of a linking document is searched for picture names. */
const LINKING_BYTES = 4 * 1024 * 1024;
/** Enough of a file to tell its type by its signature. */
const HEAD_BYTES = 4096;

export interface InputFile {
  /** The document key: `uploads/` + the path relative to the folder given (or the file's name). */
  key: string;
  path: string;
  filename: string;
}

/** A file of a folder that is not a type DropQA reads, with the reason (what it is, what is read). */
export interface UnsupportedFile extends InputFile {
  reason: string;
}

export interface CollectedInputs {
  documents: InputFile[];
  assets: InputFile[];
  unsupported: UnsupportedFile[];
}

/**
 * Expands the command line's files and folders (recursively, skipping dot-folders and node_modules).
 * A file named on the command line is always tried; in a folder, documents go by their extension
 * (every type the parsers read), a picture that a Markdown file or web page of the folder names is
 * kept as its asset (a picture no document names is a document: a scan, a photo), and every other
 * file is listed as unsupported with the reason, so no file goes unreported.
 */
export function collectInputs(paths: string[]): CollectedInputs {
  const out: CollectedInputs = { documents: [], assets: [], unsupported: [] };
  const pictures: InputFile[] = [];
  for (const path of paths) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) throw new Error(`No such file or folder: ${path}`);
    if (stat.isFile()) {
      out.documents.push(toInput(path, basename(path)));
      continue;
    }
    for (const file of walk(path)) {
      const input = toInput(file, relative(path, file).split(sep).join('/'));
      if (ASSET_EXTENSIONS.has(extname(file).toLowerCase())) pictures.push(input);
      else if (isDocumentName(input.filename)) out.documents.push(input);
      else out.unsupported.push({ ...input, reason: unsupportedReason(input.filename, readHead(file)) });
    }
  }
  const linked = linkedNames(out.documents.filter((file) => LINKING.test(file.filename)));
  for (const picture of pictures) {
    if (linked(picture.filename) || !isDocumentName(picture.filename)) out.assets.push(picture);
    else out.documents.push(picture);
  }
  return out;
}

/** Whether a Markdown file or web page among `documents` names a picture (by its file name). */
function linkedNames(documents: InputFile[]): (filename: string) => boolean {
  if (documents.length === 0) return () => false;
  const texts = documents.map((file) => readHead(file.path, LINKING_BYTES));
  const decoder = new TextDecoder();
  const joined = texts.map((bytes) => decoder.decode(bytes)).join('\n');
  return (filename) => joined.includes(filename) || joined.includes(encodeURIComponent(filename));
}

export function readInput(file: InputFile): Uint8Array {
  return new Uint8Array(readFileSync(file.path));
}

function readHead(path: string, bytes = HEAD_BYTES): Uint8Array {
  const head = new Uint8Array(bytes);
  const fd = openSync(path, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The file as ingested into a chosen collection: its key moved from `uploads/` to
 * `collections/<name>/` (Markdown images move with their documents, so relative links still resolve).
 */
export function intoCollection(file: InputFile, collection: string | undefined): InputFile {
  if (collection === undefined) return file;
  return { ...file, key: `${uploadPrefix(collection)}${file.key.replace(/^uploads\//, '')}` };
}

function toInput(path: string, relativeKey: string): InputFile {
  return { key: `uploads/${relativeKey}`, path, filename: basename(path) };
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';

/** Extensions ingested as documents when a folder is walked (a file named explicitly is always tried). */
const DOCUMENT_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.docx', '.pptx', '.xlsx', '.pdf']);
/** Files stored beside the documents so Markdown can reference them (never ingested on their own). */
const ASSET_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.svg', '.tif', '.tiff']);

export interface InputFile {
  /** The document key: `uploads/` + the path relative to the folder given (or the file's name). */
  key: string;
  path: string;
  filename: string;
}

export interface CollectedInputs {
  documents: InputFile[];
  assets: InputFile[];
  skipped: string[];
}

/** Expands the command line's files and folders (recursively, skipping dot-folders and node_modules). */
export function collectInputs(paths: string[]): CollectedInputs {
  const out: CollectedInputs = { documents: [], assets: [], skipped: [] };
  for (const path of paths) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) throw new Error(`No such file or folder: ${path}`);
    if (stat.isFile()) {
      out.documents.push(toInput(path, basename(path)));
      continue;
    }
    for (const file of walk(path)) {
      const ext = extname(file).toLowerCase();
      const input = toInput(file, relative(path, file).split(sep).join('/'));
      if (DOCUMENT_EXTENSIONS.has(ext)) out.documents.push(input);
      else if (ASSET_EXTENSIONS.has(ext)) out.assets.push(input);
      else out.skipped.push(file);
    }
  }
  return out;
}

export function readInput(file: InputFile): Uint8Array {
  return new Uint8Array(readFileSync(file.path));
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

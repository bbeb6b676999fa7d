import type { DocxElement, DocxImage, DocxNoteReference } from './model.ts';

/** A paragraph's content in order: runs of text and the images between them. */
export type InlinePart = string | DocxImage;

/** Numbers note references in the order they are first met, for `[^1]` markers. */
export type NoteMarker = (reference: DocxNoteReference) => string;

function walk(elements: readonly DocxElement[], marker: NoteMarker, out: InlinePart[]): void {
  for (const element of elements) {
    switch (element.type) {
      case 'text':
        out.push(element.value);
        break;
      case 'tab':
        out.push('\t');
        break;
      case 'break':
        // Line breaks separate lines; page and column breaks only move text on the page.
        out.push(element.breakType === 'line' ? '\n' : ' ');
        break;
      case 'image':
        out.push(element);
        break;
      case 'noteReference':
        out.push(marker(element));
        break;
      case 'checkbox':
      case 'bookmarkStart':
      case 'commentReference':
      case 'note':
      case 'comment':
        break;
      default:
        if (element.children) walk(element.children, marker, out);
    }
  }
}

/** Text and images of inline content, adjacent text merged. */
export function inlineParts(elements: readonly DocxElement[], marker: NoteMarker): InlinePart[] {
  const raw: InlinePart[] = [];
  walk(elements, marker, raw);
  const merged: InlinePart[] = [];
  for (const part of raw) {
    const last = merged.at(-1);
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return merged;
}

/** Whitespace collapsed within lines, blank lines dropped. */
export function cleanText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** The plain text of inline content (images dropped). */
export function inlineText(elements: readonly DocxElement[], marker: NoteMarker): string {
  return cleanText(
    inlineParts(elements, marker)
      .filter((part): part is string => typeof part === 'string')
      .join(''),
  );
}

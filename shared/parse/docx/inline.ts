import type { BodyExtra } from './body-rewrite.ts';
import type { DocxCommentReference, DocxElement, DocxImage, DocxNoteReference } from './model.ts';

/** What the rewrite put at one of its bookmarks (a heading number, a chart's leaves). */
export interface InlineExtra {
  type: 'extra';
  extra: BodyExtra;
}

/** A paragraph's content in order: runs of text, and the images, extras and comments between them. */
export type InlinePart = string | DocxImage | InlineExtra | DocxCommentReference;

/** Numbers note references in the order they are first met, for `[^1]` markers. */
export type NoteMarker = (reference: DocxNoteReference) => string;

/** How inline content is read: note markers, and the extras of the body rewrite by bookmark name. */
export interface InlineContext {
  marker: NoteMarker;
  extras: ReadonlyMap<string, BodyExtra>;
}

function walk(elements: readonly DocxElement[], context: InlineContext, out: InlinePart[]): void {
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
      case 'commentReference':
        out.push(element);
        break;
      case 'noteReference':
        out.push(context.marker(element));
        break;
      case 'checkbox':
        out.push(element.checked ? '☒ ' : '☐ ');
        break;
      case 'bookmarkStart': {
        const extra = context.extras.get(element.name);
        if (extra) out.push({ type: 'extra', extra });
        break;
      }
      case 'note':
      case 'comment':
        break;
      default:
        if (element.children) walk(element.children, context, out);
    }
  }
}

/** Text and the other inline parts of inline content, adjacent text merged. */
export function inlineParts(elements: readonly DocxElement[], context: InlineContext): InlinePart[] {
  const raw: InlinePart[] = [];
  walk(elements, context, raw);
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

/** The plain text of inline content (images, extras and comment references dropped). */
export function inlineText(elements: readonly DocxElement[], context: InlineContext): string {
  return cleanText(
    inlineParts(elements, context)
      .filter((part): part is string => typeof part === 'string')
      .join(''),
  );
}

/** The number the rewrite found for a paragraph (`''` for one numbered with no visible number). */
export function paragraphNumber(parts: readonly InlinePart[]): string | undefined {
  for (const part of parts) {
    if (typeof part !== 'string' && part.type === 'extra' && part.extra.kind === 'number')
      return part.extra.label;
  }
  return undefined;
}

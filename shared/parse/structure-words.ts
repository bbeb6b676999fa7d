import { fallbackColumnName } from './xlsx/column-name.ts';

/** The word the sheet readers put before a column's letters when it has no header cell ("Column C"). */
const COLUMN_LABEL = fallbackColumnName(1).replace(/\s*A$/, '');

/**
 * The words DropQA writes when it renders a document's structure rather than its text: the column
 * label of a header-less sheet (from the sheet readers' own `fallbackColumnName`), the e-mail header
 * labels of the `mail-headers` paragraph, the slide title of an untitled slide, boolean cells, and
 * the names of the structures themselves (sheet, row, cell, table, slide, note, page, image).
 * Topics are never named by these alone (`isStructurePhrase`).
 */
export const STRUCTURE_WORDS: ReadonlySet<string> = new Set(
  [
    COLUMN_LABEL,
    ...['from', 'to', 'cc', 'date', 'subject', 'attachment', 'attachments', 'body'],
    ...['slide', 'note', 'notes', 'sheet', 'row', 'cell', 'table', 'list', 'page', 'section', 'paragraph'],
    ...['image', 'picture', 'figure', 'chart', 'box', 'text', 'whitespace', 'document', 'file'],
    ...['true', 'false'],
  ].map((word) => word.toLowerCase()),
);

/** Kinds of paragraph whose text DropQA composed (labels and addresses), not the document's prose. */
export const RENDERED_KINDS: ReadonlySet<string> = new Set(['mail-headers', 'mail-attachments']);

/** "Column C:" labels and TRUE/FALSE cell values in the rows a sheet reader rendered. */
const ROW_SCAFFOLDING = new RegExp(`\\b${COLUMN_LABEL} [A-Z]{1,3}\\b:?|\\b(?:TRUE|FALSE)\\b`, 'g');

/**
 * A node's text as the document wrote it: without the labels a renderer added (the `Column C:` of
 * a header-less sheet's rows, boolean cells), and '' for a paragraph DropQA composed (mail headers,
 * the attachment list).
 *
 * @example proseOf('Column A: Lisbon office\nColumn B: TRUE', 'rows') // ' Lisbon office\n '
 */
export function proseOf(text: string, kind: string | null | undefined): string {
  if (kind && RENDERED_KINDS.has(kind)) return '';
  return kind === 'rows' ? text.replace(ROW_SCAFFOLDING, ' ') : text;
}

/** A section title DropQA made up for an untitled slide or page ("Slide 3"), not one the document wrote. */
export function isMadeUpTitle(title: string): boolean {
  return /^(?:slide|page|sheet)\s*\d+$/i.test(title.trim());
}

/**
 * Whether a topic name is made only of structure words ("Column", "table cell", "Slide note"):
 * it names the document's format, not its subject.
 *
 * @example isStructurePhrase('Table cell') // true; isStructurePhrase('periodic table') // false
 */
export function isStructurePhrase(name: string): boolean {
  const words = name
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  return (
    words.length > 0 &&
    words.every((word) => STRUCTURE_WORDS.has(word) || STRUCTURE_WORDS.has(word.replace(/s$/, '')))
  );
}

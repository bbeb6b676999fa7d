import type { ParagraphNode } from '../types.ts';

/** Rows of one sheet gathered into paragraphs of at most `maxChars` characters. */
export interface RowParagraphs {
  /** Adds a rendered row: its "column: value" lines, joined by line breaks. */
  add(rowNumber: number, row: string): void;
  /**
   * Starts another table of the sheet (a sub-table under its own header row): the open paragraph
   * closes and later ones carry `extra` in their metadata (its `columns`).
   */
  startTable(extra: Record<string, unknown>): void;
  /** The paragraphs so far, the last one closed. */
  finish(): ParagraphNode[];
}

const ROW_SEPARATOR = '\n\n';

/**
 * Groups a sheet's rows into paragraphs of bounded size, rows separated by a blank line, each with
 * `{kind: 'rows', sheet, firstRow, lastRow}`. A row longer than the bound is split between its lines;
 * a single line longer than the bound stays whole, because cutting a cell value mid-way loses more
 * than the normalization step's own split of long paragraphs.
 */
export function createRowParagraphs(sheet: string, maxChars: number): RowParagraphs {
  const paragraphs: ParagraphNode[] = [];
  // The open paragraph's pieces (separators included), joined once when it closes: a string built
  // by `+=` is a chain of pieces that outlives many garbage collections, one flat string is not.
  let pieces: string[] = [];
  let length = 0;
  let firstRow = 0;
  let lastRow = 0;
  let extra: Record<string, unknown> = {};

  const close = () => {
    if (length > 0) {
      const text = pieces.join('');
      paragraphs.push({
        type: 'paragraph',
        text,
        metadata: { kind: 'rows', sheet, firstRow, lastRow, ...extra },
      });
    }
    pieces = [];
    length = 0;
  };
  const append = (rowNumber: number, piece: string, separator: string) => {
    if (length > 0 && length + separator.length + piece.length > maxChars) close();
    if (length === 0) {
      firstRow = rowNumber;
    } else {
      pieces.push(separator);
      length += separator.length;
    }
    pieces.push(piece);
    length += piece.length;
    lastRow = rowNumber;
  };

  return {
    add(rowNumber, row) {
      if (row.length <= maxChars) {
        append(rowNumber, row, ROW_SEPARATOR);
        return;
      }
      close();
      for (const line of row.split('\n')) append(rowNumber, line, '\n');
      close();
    },
    startTable(next) {
      close();
      extra = next;
    },
    finish() {
      close();
      return paragraphs;
    },
  };
}

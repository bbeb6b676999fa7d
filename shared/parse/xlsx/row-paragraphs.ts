import type { ParagraphNode } from '../types.ts';

/** Rows of one sheet gathered into paragraphs of at most `maxChars` characters. */
export interface RowParagraphs {
  /** Adds a rendered row (its "column: value" lines). */
  add(rowNumber: number, lines: string[]): void;
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
  let text = '';
  let firstRow = 0;
  let lastRow = 0;

  const close = () => {
    if (text) {
      paragraphs.push({ type: 'paragraph', text, metadata: { kind: 'rows', sheet, firstRow, lastRow } });
    }
    text = '';
  };
  const append = (rowNumber: number, piece: string, separator: string) => {
    if (text && text.length + separator.length + piece.length > maxChars) close();
    if (!text) {
      text = piece;
      firstRow = rowNumber;
    } else {
      text += separator + piece;
    }
    lastRow = rowNumber;
  };

  return {
    add(rowNumber, lines) {
      const row = lines.join('\n');
      if (row.length <= maxChars) {
        append(rowNumber, row, ROW_SEPARATOR);
        return;
      }
      close();
      for (const line of lines) append(rowNumber, line, '\n');
      close();
    },
    finish() {
      close();
      return paragraphs;
    },
  };
}

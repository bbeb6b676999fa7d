import type { SheetCell } from '../xlsx/sheet-layout.ts';
import { isTextLabel, oneLine } from '../xlsx/sheet-section.ts';

/** A cell whose "is it a label" is worked out only when a layout asks (most rows never do). */
class Cell implements SheetCell {
  #label: boolean | undefined;
  constructor(
    readonly column: number,
    readonly text: string,
    private readonly textual: boolean,
  ) {}
  get label(): boolean {
    this.#label ??= isTextLabel(this.textual, this.text);
    return this.#label;
  }
}

/**
 * A cell of a workbook SheetJS or the .xls reader reads, as the tree shows it: its 1-based column,
 * its text trimmed and on one line, and whether its value is text. Undefined when the text
 * is empty, so the cell is left out of its row.
 *
 * @example sheetCell(1, ' Ana ', true)?.text // 'Ana'
 */
export function sheetCell(column: number, text: string, textual: boolean): SheetCell | undefined {
  const line = oneLine(text.trim());
  return line ? new Cell(column, line, textual) : undefined;
}

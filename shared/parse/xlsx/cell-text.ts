import type { CellValue } from 'exceljs';
import { dateToIso, isDateFormat, isPercentFormat, serialToIsoDate } from './number-format.ts';

/** What a cell's text depends on besides its value. */
export interface CellFormat {
  numFmt?: string;
  date1904: boolean;
}

/** Up to 15 significant digits, as Excel shows them: cached values carry binary float noise. */
function numberText(value: number, format: CellFormat): string {
  if (!Number.isFinite(value)) return '';
  if (isDateFormat(format.numFmt)) return serialToIsoDate(value, format.date1904);
  if (isPercentFormat(format.numFmt)) return `${Number((value * 100).toPrecision(15))}%`;
  return String(Number(value.toPrecision(15)));
}

function scalarText(value: unknown, format: CellFormat): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value, format);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return dateToIso(value);
  if (typeof value === 'object' && 'error' in value) return String(value.error);
  return '';
}

/**
 * The text a cell shows: cached formula results (the formula itself only when nothing is cached),
 * dates as ISO dates, rich text flattened, hyperlinks as their text, booleans as TRUE / FALSE,
 * errors as written (`#N/A`). Whitespace is trimmed; an empty cell gives ''.
 *
 * @example cellText({ formula: 'SUM(A1:A2)', result: 3 }, { date1904: false }) // '3'
 */
export function cellText(value: CellValue, format: CellFormat): string {
  if (value === null || value === undefined || typeof value !== 'object' || value instanceof Date) {
    return scalarText(value, format).trim();
  }
  if ('richText' in value)
    return value.richText
      .map((run) => run.text)
      .join('')
      .trim();
  if ('hyperlink' in value) return cellText(value.text as CellValue, format);
  if ('formula' in value || 'sharedFormula' in value) {
    const result = scalarText(value.result, format).trim();
    if (result) return result;
    const formula = 'formula' in value ? value.formula : undefined;
    return formula ? `=${formula}` : '';
  }
  return scalarText(value, format).trim();
}

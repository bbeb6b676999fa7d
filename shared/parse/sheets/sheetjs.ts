import * as XLSX from '@e965/xlsx';
import * as cptable from '@e965/xlsx/dist/cpexcel.full.mjs';

// Legacy workbooks store strings in the code page of the machine that wrote them (GBK, Big5, 1252).
XLSX.set_cptable(cptable);

export { XLSX };

/**
 * `XLSX.read`, with the notes SheetJS prints to `console.error` while reading (on what it reads only
 * in part: "ODS number format may be incorrect: value()>0") returned, once each, instead of printed.
 * The read is synchronous, so no other code runs while `console.error` is borrowed.
 *
 * @example readWorkbook(bytes, { type: 'array', dense: true }) // { book, notes: [] }
 */
export function readWorkbook(
  data: Parameters<typeof XLSX.read>[0],
  options: XLSX.ParsingOptions,
): { book: XLSX.WorkBook; notes: string[] } {
  const notes = new Set<string>();
  const print = console.error;
  console.error = (...parts: unknown[]) => notes.add(parts.map(String).join(' '));
  try {
    return { book: XLSX.read(data, options), notes: [...notes] };
  } finally {
    console.error = print;
  }
}

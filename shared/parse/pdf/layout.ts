/** A piece of text pdf.js placed on a page, in PDF user space (y grows upwards). */
export interface TextRun {
  text: string;
  /** Left edge and baseline. */
  x: number;
  y: number;
  width: number;
  /** Font size on the page (the text matrix's vertical scale). */
  size: number;
  /** pdf.js's id of the font (`g_d0_f1`), the key of `PageFonts`. */
  font: string;
}

/** Whether each font of a page is bold, by its pdf.js id. */
export type PageFonts = ReadonlyMap<string, { bold: boolean }>;

/** Runs on one baseline without a wide gap between them: a line of a column or a cell. */
export interface Line {
  text: string;
  x: number;
  right: number;
  y: number;
  /** The size of most of the line's characters. */
  size: number;
  /** Nearly all of the line's characters are in bold fonts. */
  bold: boolean;
  /** Lines split from one baseline at wide gaps share this number (the cells of a table row). */
  row: number;
}

/** A paragraph-like block of consecutive lines of one page, in reading order. */
export interface TextBlock {
  kind: 'text';
  text: string;
  page: number;
  /** The top of its first line (PDF units, y upwards) and its left edge. */
  top: number;
  x: number;
  size: number;
  bold: boolean;
  lines: number;
  /** Which side of a two-column page it is on (0 for single-column text and spanning lines). */
  column: number;
  /** The cells of each row when the block is a table. */
  rows?: string[][];
}

/** What the tree is built from, in reading order: headings, paragraphs and images with their pages. */
export type PdfItem =
  | { type: 'heading'; title: string; level: number; page: number }
  | { type: 'paragraph'; text: string; page: number; title?: boolean }
  | { type: 'table'; rows: string[][]; page: number }
  | { type: 'image'; name: string; page: number };

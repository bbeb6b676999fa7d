/**
 * Reference outlines for presentations and workbooks, which pandoc cannot read: LibreOffice (Debian
 * `libreoffice-impress-nogui`, `-calc-nogui`, bench tools only, never a runtime need) converts each
 * deck to OpenDocument (.odp; `convertWithLibreOffice`), whose `content.xml` gives every slide
 * (`draw:page`) with its title frame (`presentation:class="title"`) and all its text, speaker notes
 * included; and each workbook to .ods, whose `content.xml` gives every sheet's name and cells.
 */
import { readFileSync } from 'node:fs';
import { SaxesParser } from 'saxes';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';

/** Slide titles in order and the text of every slide (titles included), space-separated runs. */
export interface DeckOutline {
  headings: string[];
  text: string[];
}

/**
 * Elements whose text is not the slide's own: descriptions (alt text, shape titles) and the slide
 * number field, which LibreOffice writes as the stand-in `<number>`.
 */
const NOT_TEXT = new Set(['svg:title', 'svg:desc', 'text:page-number']);
/** Frames that repeat on every slide or notes page: footers, dates, slide and page numbers. */
const REPEATED_FRAMES = new Set(['page-number', 'footer', 'header', 'date-time']);
const skipped = (tag: { name: string; attributes: Record<string, unknown> }) =>
  NOT_TEXT.has(tag.name) || REPEATED_FRAMES.has(String(tag.attributes['presentation:class'] ?? ''));

/** Elements that stand for white space. */
const SPACES = new Set(['text:s', 'text:tab', 'text:line-break']);
/** Elements that end a run of text (a paragraph, a heading, a table cell). */
const BLOCKS = new Set(['text:p', 'text:h', 'table:table-cell']);

function contentXml(path: string): string {
  const bytes = new Uint8Array(readFileSync(path));
  const entry = readZipDirectory(bytes).find((e) => e.name === 'content.xml');
  if (!entry) throw new Error(`${path} has no content.xml`);
  return new TextDecoder().decode(readZipEntry(bytes, entry, 1 << 28));
}

/** Repeated rows and cells (`number-rows-repeated`) count up to this many times: Calc pads sheets. */
const MAX_REPEAT = 1000;

/**
 * Reads an .ods's sheet names (in order, as headings) and its cells' values: numbers as stored
 * (`office:value`, a percentage times 100), dates as ISO dates (`office:date-value`), other cells as
 * their text. Stored rather than shown numbers, since DropQA does not format numbers (1234.5, not
 * "1,234.50 €"), so that a difference of format is not counted as a lost word.
 */
export function readSheetOutline(odsPath: string): DeckOutline {
  const headings: string[] = [];
  const text: string[] = [];
  let cell: { value: string | undefined; repeat: number; text: string } | undefined;
  let row: { cells: string[]; repeat: number } | undefined;
  const count = (value: unknown) => Math.min(MAX_REPEAT, Number(value ?? 1) || 1);
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    if (tag.name === 'table:table' && a['table:name']) headings.push(a['table:name']);
    if (tag.name === 'table:table-row') row = { cells: [], repeat: count(a['table:number-rows-repeated']) };
    if (tag.name === 'table:table-cell' || tag.name === 'table:covered-table-cell') {
      const type = a['office:value-type'];
      const stored =
        type === 'float' || type === 'currency'
          ? a['office:value']
          : type === 'percentage'
            ? String(Number((Number(a['office:value']) * 100).toPrecision(15)))
            : type === 'date'
              ? a['office:date-value']?.replace('T00:00:00', '').replace('T', ' ')
              : undefined;
      cell = { value: stored, repeat: count(a['table:number-columns-repeated']), text: '' };
    }
    if (cell && SPACES.has(tag.name)) cell.text += ' ';
  });
  parser.on('text', (value) => {
    if (cell) cell.text += value;
  });
  parser.on('closetag', (tag) => {
    if (cell && tag.name === 'text:p') cell.text += ' ';
    if (cell && (tag.name === 'table:table-cell' || tag.name === 'table:covered-table-cell')) {
      const value = (cell.value ?? cell.text).trim();
      if (value && row) for (let i = 0; i < cell.repeat; i++) row.cells.push(value);
      cell = undefined;
    }
    if (row && tag.name === 'table:table-row') {
      if (row.cells.length) for (let i = 0; i < row.repeat; i++) text.push(...row.cells);
      row = undefined;
    }
  });
  parser.write(contentXml(odsPath)).close();
  return { headings, text };
}

/** Reads an .odp's slide titles (in order) and all its slides' text, notes included. */
export function readDeckOutline(odpPath: string): DeckOutline {
  const xml = contentXml(odpPath);
  const headings: string[] = [];
  const text: string[] = [];
  const stack: string[] = [];
  let inPage = 0;
  let skipping = 0;
  /** The depth of the title frame being read, and its text so far. */
  let titleDepth = -1;
  let title = '';
  let run = '';
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    if (tag.name === 'draw:page') inPage++;
    if (skipped(tag)) skipping++;
    if (SPACES.has(tag.name)) run += ' ';
    if (
      inPage &&
      titleDepth < 0 &&
      tag.name === 'draw:frame' &&
      tag.attributes['presentation:class'] === 'title' &&
      !stack.includes('presentation:notes')
    ) {
      titleDepth = stack.length;
      title = '';
    }
  });
  parser.on('text', (value) => {
    if (!inPage || skipping) return;
    run += value;
    if (titleDepth >= 0) title += value;
  });
  parser.on('closetag', (tag) => {
    if (BLOCKS.has(tag.name)) {
      if (run.trim()) text.push(run.trim());
      run = '';
      if (titleDepth >= 0) title += ' ';
    }
    if (titleDepth === stack.length) {
      if (title.trim()) headings.push(title.trim());
      titleDepth = -1;
    }
    if (skipped(tag)) skipping--;
    if (tag.name === 'draw:page') inPage--;
    stack.pop();
  });
  parser.write(xml).close();
  return { headings, text };
}

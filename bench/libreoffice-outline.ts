/**
 * A reference outline for presentations, which pandoc cannot read: LibreOffice (Debian
 * `libreoffice-impress-nogui`, a bench tool only, never a runtime need) converts each deck to
 * OpenDocument (.odp; `convertWithLibreOffice`), whose `content.xml` gives every slide (`draw:page`)
 * with its title frame (`presentation:class="title"`) and all its text, speaker notes included.
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

/** Reads an .odp's slide titles (in order) and all its slides' text, notes included. */
export function readDeckOutline(odpPath: string): DeckOutline {
  const bytes = new Uint8Array(readFileSync(odpPath));
  const entry = readZipDirectory(bytes).find((e) => e.name === 'content.xml');
  if (!entry) throw new Error(`${odpPath} has no content.xml`);
  const xml = new TextDecoder().decode(readZipEntry(bytes, entry, 1 << 28));
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

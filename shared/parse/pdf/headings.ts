import type { FlowEntry } from './flow.ts';
import type { PdfItem, TextBlock } from './layout.ts';
import { headingNumber } from './numbering.ts';
import { LIST_MARKER } from './paragraphs.ts';

/** The body text size: the most common font size, counted by characters. */
export function bodySize(blocks: Iterable<TextBlock>): number {
  const chars = new Map<number, number>();
  for (const block of blocks) chars.set(block.size, (chars.get(block.size) ?? 0) + block.text.length);
  let size = 0;
  let most = -1;
  for (const [candidate, count] of chars) {
    if (count > most || (count === most && candidate < size)) [size, most] = [candidate, count];
  }
  return size;
}

interface Heading {
  block: TextBlock;
  /** Its size and boldness (`11|1`). */
  look: string;
  depth: number;
  /** Only its numbering makes it a heading (body size, not bold). */
  onlyNumbered: boolean;
}

/** A numbered line in the body font heads a section only when text follows it, not another item of a list. */
function headsText(next: FlowEntry | undefined): boolean {
  return next?.kind === 'text' && !next.rows && !LIST_MARKER.test(next.text) && !headingNumber(next.text);
}

const TOC_ENTRY = /(?:\.{3,}|…{2,}|(?:\s\.){3,})\s*\d+$/;
const SENTENCE_END = /[.,;:，。；：、]$/;

function headingOf(block: TextBlock, body: number): Heading | undefined {
  const text = block.text;
  if (block.rows || text.length > 200 || block.lines > 3 || TOC_ENTRY.test(text) || !/\p{L}/u.test(text))
    return undefined;
  const number = headingNumber(text);
  if (SENTENCE_END.test(text) && !(number && text.length <= 80)) return undefined;
  const larger = block.size >= body * 1.15 && block.size - body >= 1;
  const bold = block.bold && block.size >= body - 0.5 && text.length <= 120 && block.lines <= 2;
  const numbered =
    number?.strong === true && block.lines === 1 && text.length <= 80 && block.size >= body - 0.5;
  if (!larger && !bold && !numbered) return undefined;
  return {
    block,
    look: larger || bold ? `${block.size}|${block.bold ? 1 : 0}` : `${body}|0`,
    depth: number?.depth ?? 1,
    onlyNumbered: !larger && !bold,
  };
}

function compareLooks(a: string, b: string): number {
  const [sizeA = 0, boldA = 0] = a.split('|').map(Number);
  const [sizeB = 0, boldB = 0] = b.split('|').map(Number);
  return sizeB - sizeA || boldB - boldA;
}

/**
 * Turns the flow of a document without an outline into headings, paragraphs and images. A heading is
 * a short block set clearly larger than the body text, or in bold, or starting with a heading
 * number ("1.2", "第一章", "Chapter 3") and followed by text rather than by another list item. Its
 * level comes from the rank of its look (size, then bold) and, within one look, from its numbering
 * depth. A first-page block in the largest look that occurs
 * only once is the document's title: it stays a paragraph marked `{ kind: 'title' }`.
 */
export function inferHeadings(flow: readonly FlowEntry[], body: number): PdfItem[] {
  const headings = new Map<TextBlock, Heading>();
  flow.forEach((entry, i) => {
    if (entry.kind !== 'text') return;
    const heading = headingOf(entry, body);
    if (heading && (!heading.onlyNumbered || headsText(flow[i + 1]))) headings.set(entry, heading);
  });
  const all = [...headings.values()];
  const looks = [...new Set(all.map((h) => h.look))].sort(compareLooks);
  const first = all[0];
  const titleLook = looks[0];
  let title: TextBlock | undefined;
  const firstText = flow.find((entry) => entry.kind === 'text');
  if (first && first.block.page === 1 && first.look === titleLook) {
    const unique = all.filter((h) => h.look === titleLook).length === 1;
    const alone = looks.length === 1 && first.block === firstText && first.block.size >= body * 1.15;
    if (unique && (looks.length > 1 || alone)) title = first.block;
  }
  const keys = all
    .filter((h) => h.block !== title)
    .map((h) => [looks.indexOf(h.look), h.depth] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const levels = new Map<string, number>();
  for (const [look, depth] of keys) {
    const key = `${look}:${depth}`;
    if (!levels.has(key)) levels.set(key, levels.size + 1);
  }
  return flow.map((entry): PdfItem => {
    if (entry.kind === 'image') return { type: 'image', name: entry.name, page: entry.page };
    if (entry.rows) return { type: 'table', rows: entry.rows, page: entry.page };
    if (entry === title) return { type: 'paragraph', text: entry.text, page: entry.page, title: true };
    const heading = headings.get(entry);
    if (!heading) return { type: 'paragraph', text: entry.text, page: entry.page };
    const level = levels.get(`${looks.indexOf(heading.look)}:${heading.depth}`) ?? 1;
    return { type: 'heading', title: entry.text, level, page: entry.page };
  });
}

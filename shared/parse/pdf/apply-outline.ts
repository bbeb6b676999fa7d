import type { FlowEntry } from './flow.ts';
import type { PdfItem } from './layout.ts';
import type { OutlineEntry } from './outline.ts';

type Inserted = Extract<PdfItem, { type: 'heading' }>;

const LEADING_NUMBER =
  /^(?:\d+(?:\.\d+)*\.?|第\s*\S{1,4}\s*[章节篇部]|[一二三四五六七八九十]+、|chapter\s+\w+|section\s+[\d.]+)\s*/i;

function normalized(text: string): string {
  return text.toLowerCase().replace(/[\s\p{P}\p{S}]/gu, '');
}

function matches(block: string, title: string): boolean {
  if (block.length > title.length * 2 + 20) return false;
  const a = normalized(block);
  const b = normalized(title);
  return (
    a === b || normalized(block.replace(LEADING_NUMBER, '')) === normalized(title.replace(LEADING_NUMBER, ''))
  );
}

/** Index ranges of each page's entries in the flow; a page without entries is an empty range where the next page starts. */
function pageRanges(flow: readonly FlowEntry[], pages: number): { start: number[]; end: number[] } {
  const start = new Array<number>(pages + 2).fill(-1);
  const end = new Array<number>(pages + 2).fill(-1);
  flow.forEach((entry, i) => {
    if (start[entry.page] === -1) start[entry.page] = i;
    end[entry.page] = i + 1;
  });
  let next = flow.length;
  for (let page = pages + 1; page >= 0; page--) {
    if (start[page] === -1) {
      start[page] = next;
      end[page] = next;
    }
    next = start[page] ?? next;
  }
  return { start, end };
}

/**
 * Builds the items of a document that has an outline: each bookmark becomes a heading at its depth.
 * A bookmark whose title is a text block of its page (numbering aside) turns that block into the
 * heading; otherwise a heading is inserted where the bookmark points (before the first block below
 * its destination), so nothing of the text is lost or duplicated.
 */
export function outlineItems(
  flow: readonly FlowEntry[],
  outline: readonly OutlineEntry[],
  pages: number,
): PdfItem[] {
  const { start, end } = pageRanges(flow, pages);
  const matched = new Map<number, number>();
  const inserted = new Map<number, Inserted[]>();
  let cursor = 0;
  const find = (from: number, to: number, title: string): number => {
    for (let i = from; i < to; i++) {
      const entry = flow[i];
      if (entry?.kind === 'text' && !entry.rows && !matched.has(i) && matches(entry.text, title)) return i;
    }
    return -1;
  };
  for (const entry of outline) {
    const page = entry.page !== undefined && entry.page >= 1 && entry.page <= pages ? entry.page : undefined;
    const from = page === undefined ? cursor : (start[page] ?? cursor);
    const to = page === undefined ? cursor : (end[page] ?? cursor);
    let at = find(Math.max(from, cursor), to, entry.title);
    if (at === -1) at = find(from, Math.min(to, cursor), entry.title);
    if (at !== -1) {
      matched.set(at, entry.depth);
      cursor = Math.max(cursor, at + 1);
      continue;
    }
    let before = Math.max(from, Math.min(cursor, to));
    if (entry.y !== undefined) {
      const y = entry.y;
      // A destination points at about the top of its heading; a block starting more than a line above it comes first.
      const above = (entry: FlowEntry | undefined) =>
        entry !== undefined && entry.top > y + (entry.kind === 'text' ? entry.size : 2);
      while (before < to && above(flow[before])) before++;
    }
    const list = inserted.get(before) ?? [];
    list.push({
      type: 'heading',
      title: entry.title,
      level: entry.depth,
      page: page ?? flow[before]?.page ?? pages,
    });
    inserted.set(before, list);
    cursor = Math.max(cursor, before);
  }
  const items: PdfItem[] = [];
  for (let i = 0; i <= flow.length; i++) {
    items.push(...(inserted.get(i) ?? []));
    const entry = flow[i];
    if (!entry) continue;
    const level = matched.get(i);
    if (entry.kind === 'image') items.push({ type: 'image', name: entry.name, page: entry.page });
    else if (entry.rows) items.push({ type: 'table', rows: entry.rows, page: entry.page });
    else if (level !== undefined) items.push({ type: 'heading', title: entry.text, level, page: entry.page });
    else items.push({ type: 'paragraph', text: entry.text, page: entry.page });
  }
  return items;
}

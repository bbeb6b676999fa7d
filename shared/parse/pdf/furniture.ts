import type { Line } from './layout.ts';

/** The share of the page height at the top and at the bottom where headers and footers live. */
const MARGIN = 0.08;

const PAGE_NUMBER =
  /^(?:[-–—\s]*(?:page\s*)?\d{1,4}(?:\s*(?:\/|of)\s*\d{1,4})?[-–—\s]*|[ivxlcdm]{1,7}|第\s*\d{1,4}\s*页(?:[，,\s]*共\s*\d{1,4}\s*页)?|\d{1,4}\s*\/\s*\d{1,4})$/i;

/** A page's lines and its box ([left, bottom, right, top]). */
export interface PageLines {
  lines: Line[];
  box: readonly number[];
}

function inMargin(line: Line, box: readonly number[]): boolean {
  const bottom = box[1] ?? 0;
  const top = box[3] ?? 792;
  const band = (top - bottom) * MARGIN;
  return line.y >= top - band || line.y <= bottom + band;
}

/** Digits vary from page to page ("Page 3", "Annual report 2024 - 3"); the rest of the text repeats. */
function furnitureKey(line: Line): string {
  return line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
}

/** Headers that name the current chapter ("Chapter 2: Setup") share their start and their height. */
function familyKey(line: Line): string {
  return `${Math.round(line.y)}|${furnitureKey(line).split(' ').slice(0, 2).join(' ')}`;
}

/**
 * Drops running headers and footers and bare page numbers: lines in the top or bottom margin band
 * that are only a page number ("3", "- 3 -", "Page 3 of 9", "第 3 页"), or whose text (digits aside)
 * repeats in the margins of three pages (of two in a document of up to four pages), or which starts
 * like the lines at the same height in the margins of three pages ("Chapter 2: ...", "Chapter 3: ...").
 *
 * @returns the pages' remaining lines and how many lines were dropped
 */
export function dropFurniture(pages: readonly PageLines[]): { pages: Line[][]; dropped: number } {
  const seenOn = new Map<string, number>();
  for (const page of pages) {
    const margin = page.lines.filter((line) => inMargin(line, page.box));
    const keys = new Set([...margin.map(furnitureKey), ...margin.map(familyKey)]);
    for (const key of keys) seenOn.set(key, (seenOn.get(key) ?? 0) + 1);
  }
  // Chapter-title headers repeat only over their chapter's pages: three pages are enough.
  const repeats = Math.min(3, Math.max(2, Math.ceil(pages.length / 2)));
  let dropped = 0;
  const kept = pages.map((page) =>
    page.lines.filter((line) => {
      if (!inMargin(line, page.box)) return true;
      const furniture =
        PAGE_NUMBER.test(line.text.trim()) ||
        (seenOn.get(furnitureKey(line)) ?? 0) >= repeats ||
        (seenOn.get(familyKey(line)) ?? 0) >= Math.max(3, repeats);
      if (furniture) dropped++;
      return !furniture;
    }),
  );
  return { pages: kept, dropped };
}

import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import type { TextRun } from './layout.ts';

function isTextItem(item: TextContent['items'][number]): item is TextItem {
  return 'str' in item;
}

/**
 * The text runs of a page from pdf.js's text content: empty items dropped, whitespace-only items kept
 * (they tell where words break), position and size read from each item's transform.
 */
export function textRuns(content: TextContent): TextRun[] {
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!isTextItem(item) || item.str === '') continue;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
    const size = Math.hypot(c, d) || Math.hypot(a, b);
    if (!(size > 0)) continue;
    runs.push({ text: item.str, x, y, width: item.width, size, font: item.fontName });
  }
  return runs;
}

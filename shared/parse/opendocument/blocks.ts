import type { AnyNode, Element } from 'domhandler';
import { chartLeaves } from '../chart/chart-data.ts';
import type { ImageCollector } from '../image-collector.ts';
import type { OutlineBuilder } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import { objectContentPath, readOdfChart } from './chart.ts';
import { elements } from './package.ts';

/** What a walk over OpenDocument text needs: where leaves go, images, the styles' outline levels. */
export interface OdfWalk {
  outline: OutlineBuilder;
  images: ImageCollector;
  levels: Map<string, number>;
  signal?: AbortSignal;
  /** Metadata for every leaf (a slide's number, `kind: 'notes'`). */
  metadata?: Record<string, unknown>;
  /** A package entry's bytes by path (embedded objects' parts); charts are skipped without it. */
  read?: (path: string) => Uint8Array | undefined;
}

/** Never text: declarations, tracked deletions, forms, a table of contents (it repeats the headings). */
const SKIPPED = new Set([
  'text:sequence-decls',
  'text:variable-decls',
  'text:user-field-decls',
  'text:tracked-changes',
  'office:forms',
  'office:annotation',
  'text:table-of-content',
  'text:illustration-index',
  'text:alphabetical-index',
  'table:table-columns',
  'table:table-column',
  'draw:page-thumbnail',
]);
/** Cells repeated beyond this are empty padding (spreadsheet-style tables). */
const MAX_REPEAT = 64;

/** The text of an inline run: spaces (`text:s`), tabs and line breaks spelled out; notes left out. */
export function inlineText(node: AnyNode): string {
  if (node.type === 'text') return (node as unknown as { data: string }).data;
  if (!('name' in node)) return '';
  const element = node as Element;
  switch (element.name) {
    case 'text:s':
      return ' '.repeat(Math.min(Number(element.attribs['text:c'] ?? 1) || 1, 1000));
    case 'text:tab':
      return '\t';
    case 'text:line-break':
      return '\n';
    case 'text:note':
    case 'draw:frame':
    case 'office:annotation':
    case 'text:bookmark-ref':
      return '';
    default:
      return element.children.map(inlineText).join('');
  }
}

function clean(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

function leaf(walk: OdfWalk, text: string, extra?: Record<string, unknown>): void {
  const metadata = walk.metadata || extra ? { ...walk.metadata, ...extra } : undefined;
  walk.outline.leaf({ type: 'paragraph', text, ...(metadata ? { metadata } : {}) });
}

/** Images (`draw:frame > draw:image`) and foot/endnote bodies inside a paragraph, after its text. */
async function paragraphExtras(element: Element, walk: OdfWalk): Promise<void> {
  for (const child of elements(element)) {
    if (child.name === 'draw:frame') await frame(child, walk);
    else if (child.name === 'text:note') {
      const body = elements(child).find((e) => e.name === 'text:note-body');
      if (body) for (const block of elements(body)) await walkBlock(block, walk);
    } else if (child.name !== 'office:annotation') await paragraphExtras(child, walk);
  }
}

function listLines(list: Element, depth: number): string[] {
  const lines: string[] = [];
  for (const item of elements(list)) {
    if (item.name !== 'text:list-item' && item.name !== 'text:list-header') continue;
    for (const block of elements(item)) {
      if (block.name === 'text:list') lines.push(...listLines(block, depth + 1));
      else if (block.name === 'text:p' || block.name === 'text:h') {
        const text = clean(inlineText(block)).replace(/\n/g, ' ');
        if (text) lines.push(`${'  '.repeat(depth)}- ${text}`);
      }
    }
  }
  return lines;
}

function cellText(cell: Element): string {
  return elements(cell)
    .map((block) => (block.name === 'text:list' ? listLines(block, 0).join(' ') : clean(inlineText(block))))
    .filter(Boolean)
    .join(' ');
}

function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  const visit = (node: Element) => {
    for (const child of elements(node)) {
      if (child.name === 'table:table-row') {
        const cells: string[] = [];
        for (const cell of elements(child)) {
          if (cell.name !== 'table:table-cell' && cell.name !== 'table:covered-table-cell') continue;
          const repeat = Math.min(
            Number(cell.attribs['table:number-columns-repeated'] ?? 1) || 1,
            MAX_REPEAT,
          );
          const text = cell.name === 'table:table-cell' ? cellText(cell) : '';
          for (let i = 0; i < repeat; i++) cells.push(text);
        }
        while (cells.length > 0 && cells.at(-1) === '') cells.pop();
        if (cells.length > 0) rows.push(cells);
      } else if (/^table:table-(header-rows|rows|row-group)$/.test(child.name)) visit(child);
    }
  };
  visit(table);
  return rows;
}

/** A drawing frame: its chart (title and data table), image, text box's blocks, or table. */
export async function frame(element: Element, walk: OdfWalk): Promise<void> {
  const title = elements(element).find((e) => e.name === 'svg:title' || e.name === 'svg:desc');
  for (const child of elements(element)) {
    if (child.name === 'draw:object') {
      const href = child.attribs['xlink:href'];
      const chart = href && walk.read ? readOdfChart(walk.read(objectContentPath(href))) : undefined;
      if (chart) {
        for (const node of chartLeaves(chart, walk.metadata ?? {})) walk.outline.leaf(node);
        // The frame's picture is the chart's rendition: its data is already read.
        break;
      }
      continue;
    }
    if (child.name === 'draw:image') {
      const href = child.attribs['xlink:href'];
      if (href) {
        const alt = title ? clean(inlineText(title)) : (element.attribs['draw:name'] ?? '');
        const node = await walk.images.collect(href, alt);
        if (node) walk.outline.leaf(walk.metadata ? { ...node, metadata: walk.metadata } : node);
      }
      // A frame holds alternative renditions of one picture: the first readable one is enough.
      break;
    }
    if (child.name === 'draw:text-box' || child.name === 'table:table') await walkBlock(child, walk);
  }
}

/**
 * Walks one block of OpenDocument text into the outline: headings (`text:h`, or a paragraph whose
 * style has an outline level) open sections, paragraphs, lists and tables become leaves, frames
 * their images or text; containers (sections, text boxes, shapes, groups) are walked through.
 */
export async function walkBlock(element: Element, walk: OdfWalk): Promise<void> {
  if (SKIPPED.has(element.name)) return;
  walk.signal?.throwIfAborted();
  switch (element.name) {
    case 'text:h':
    case 'text:p': {
      const style = element.attribs['text:style-name'] ?? '';
      const level =
        element.name === 'text:h'
          ? Number(element.attribs['text:outline-level'] ?? walk.levels.get(style) ?? 1) || 1
          : walk.levels.get(style);
      const text = clean(inlineText(element));
      if (level !== undefined && text) walk.outline.heading(level, text.replace(/\n/g, ' '), walk.metadata);
      else if (text) leaf(walk, text);
      await paragraphExtras(element, walk);
      return;
    }
    case 'text:list': {
      const lines = listLines(element, 0);
      if (lines.length > 0) leaf(walk, lines.join('\n'), { kind: 'list' });
      return;
    }
    case 'table:table': {
      const rows = tableRows(element);
      if (rows.length > 0) {
        walk.outline.leaf({
          type: 'table',
          text: pipeTable(rows),
          rows,
          ...(walk.metadata ? { metadata: walk.metadata } : {}),
        });
      }
      return;
    }
    case 'draw:frame':
      await frame(element, walk);
      return;
    default:
      for (const child of elements(element)) await walkBlock(child, walk);
  }
}

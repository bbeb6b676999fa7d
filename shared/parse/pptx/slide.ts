import type { SectionNode, TreeNode } from '../types.ts';
import { commentLeaves } from './comments.ts';
import type { PptxImages } from './images.ts';
import { notesLeaves } from './notes.ts';
import type { OpcPackage } from './package.ts';
import { readShapes, type SlideItem } from './shapes.ts';
import { textLeaves } from './text-leaves.ts';
import { path } from './xml.ts';

/** A first line longer than this is not a title: the slide is titled by its start, the line kept. */
const MAX_TITLE_CHARS = 100;
const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
/** Body and content placeholders take bullets from the slide master unless a paragraph says none. */
const BULLETED_PLACEHOLDERS = new Set(['body', 'obj']);

type TextItem = Extract<SlideItem, { kind: 'text' }>;

function lineText(item: TextItem): string {
  return item.lines
    .map((line) => line.text.replace(/\n/g, ' '))
    .filter((text) => text !== '')
    .join(' ');
}

function shorten(text: string): string {
  const cut = text.slice(0, MAX_TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * Takes the slide's title out of its items: the first title placeholder with text, else the first
 * line of the first text shape (removed from the body when it is short enough to be a title).
 */
function takeTitle(items: SlideItem[]): string | undefined {
  const placeholder = items.findIndex(
    (item) => item.kind === 'text' && TITLE_PLACEHOLDERS.has(item.placeholder ?? ''),
  );
  const titleItem = items[placeholder];
  if (titleItem?.kind === 'text') {
    items.splice(placeholder, 1);
    return lineText(titleItem);
  }
  const first = items.find((item): item is TextItem => item.kind === 'text');
  const index = first?.lines.findIndex((line) => line.text !== '') ?? -1;
  const line = first?.lines[index];
  if (!first || !line) return undefined;
  const text = line.text.replace(/\n/g, ' ');
  if (text.length > MAX_TITLE_CHARS) return shorten(text);
  first.lines = first.lines.filter((_, i) => i !== index);
  return text;
}

function leavesOf(items: readonly SlideItem[], metadata: Record<string, unknown>): TreeNode[] {
  const leaves: TreeNode[] = [];
  for (const item of items) {
    if (item.kind === 'leaf') {
      leaves.push(item.node);
      continue;
    }
    const filled = item.lines.filter((line) => line.text !== '').length;
    // A lone paragraph in a content placeholder reads as prose, not as a one-item list.
    const bulleted = BULLETED_PLACEHOLDERS.has(item.placeholder ?? '') && filled > 1;
    leaves.push(...textLeaves(item.lines, bulleted, metadata));
  }
  return leaves;
}

/**
 * Reads one slide part into a section titled by its title placeholder (else its first text, else
 * "Slide n"), with its text, tables, charts (title and data table), SmartArt text and pictures in reading order, its
 * comments (`metadata.kind: 'comment'`) and its speaker notes last (`metadata.kind: 'notes'`). The section and each leaf carry `{ slide: n }`;
 * a hidden slide's section also `{ hidden: true }`.
 */
export function readSlide(pkg: OpcPackage, part: string, slide: number, images: PptxImages): SectionNode {
  const root = pkg.xml(part);
  const rels = pkg.relationships(part);
  const metadata = { slide };
  const items = readShapes(path(root, 'cSld', 'spTree'), { pkg, rels, images, metadata });
  const title = takeTitle(items) || `Slide ${slide}`;
  const children = [
    ...leavesOf(items, metadata),
    ...commentLeaves(pkg, rels, metadata),
    ...notesLeaves(pkg, rels, metadata),
  ];
  const show = root?.attributes.show;
  const sectionMetadata: Record<string, unknown> = { slide };
  if (show === '0' || show === 'false') sectionMetadata.hidden = true;
  return { type: 'section', title, children, metadata: sectionMetadata };
}

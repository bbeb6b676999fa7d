import type { ParagraphNode, SectionNode, TreeNode } from '../types.ts';
import { headingLevel } from './heading-level.ts';
import { createHeadingNumberer } from './heading-number.ts';
import type { DocxImages } from './images.ts';
import { cleanText, inlineParts, inlineText, type NoteMarker } from './inline.ts';
import { type ListItem, listParagraph } from './list.ts';
import type { DocxDocument, DocxElement, DocxNoteReference, DocxParagraph } from './model.ts';
import { tableLeaves } from './table.ts';

/** The tree of a Word document and the title its Title-styled paragraph gives, if any. */
export interface DocxTree {
  children: TreeNode[];
  /** The first Title-styled paragraph, when the document title came from it. */
  title?: string;
}

/** Table-of-contents entries repeat the headings (with page numbers): the sections already say it. */
const TOC_STYLE = /^(?:toc|目录|目錄|verzeichnis)\s*\d$/i;
/** Captions name the table or figure next to them; marked so that rendering and search can tell. */
const CAPTION_STYLE = /^(?:caption|题注|題注|beschriftung|légende|leyenda|didascalia)$/i;
const STARTS_NUMBERED = /^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[一二三四五六七八九十]+、|第.+?[章节])\s/;

function paragraph(text: string, metadata?: Record<string, unknown>): ParagraphNode {
  return metadata ? { type: 'paragraph', text, metadata } : { type: 'paragraph', text };
}

/**
 * Builds the section tree of a Word document from its heading styles with a stack (as the Markdown
 * parser does: skipped levels still nest, text before the first heading stays at the top), lists
 * grouped, tables whole, images at their place, footnotes and endnotes at the end.
 *
 * @param knownTitle the title from the core properties, if any; Title-styled paragraphs that repeat
 *   it are dropped, others become paragraphs.
 * @param silentStyles paragraph styles whose automatic numbering shows no number
 *   (`silentlyNumberedStyles`): their headings get none.
 */
export async function buildDocxTree(
  document: DocxDocument,
  images: DocxImages,
  knownTitle: string | undefined,
  silentStyles: ReadonlySet<string> = new Set(),
): Promise<DocxTree> {
  const root: TreeNode[] = [];
  const open: { depth: number; section: SectionNode }[] = [];
  const notes: DocxNoteReference[] = [];
  const noteNumbers = new Map<string, number>();
  const numberHeading = createHeadingNumberer();
  let list: ListItem[] = [];
  let title: string | undefined;

  const marker: NoteMarker = (reference) => {
    const key = `${reference.noteType}-${reference.noteId}`;
    let number = noteNumbers.get(key);
    if (number === undefined) {
      number = noteNumbers.size + 1;
      noteNumbers.set(key, number);
      notes.push(reference);
    }
    return `[^${number}]`;
  };
  const target = () => open.at(-1)?.section.children ?? root;
  const flushList = () => {
    if (list.length) target().push(listParagraph(list));
    list = [];
  };

  /** A paragraph's text runs and images in order; a paragraph split by images becomes several. */
  async function paragraphLeaves(
    element: DocxParagraph,
    metadata?: Record<string, unknown>,
  ): Promise<TreeNode[]> {
    const out: TreeNode[] = [];
    let run = '';
    const flush = () => {
      const text = cleanText(run);
      if (text) out.push(paragraph(text, metadata));
      run = '';
    };
    for (const part of inlineParts(element.children, marker)) {
      if (typeof part === 'string') {
        run += part;
        continue;
      }
      const node = await images.collect(part);
      if (!node) continue;
      flush();
      out.push(node);
    }
    flush();
    return out;
  }

  async function heading(element: DocxParagraph, depth: number): Promise<boolean> {
    let text = inlineText(element.children, marker).replace(/\s+/g, ' ');
    if (!text) return false;
    flushList();
    const metadata: Record<string, unknown> = { style: element.styleName ?? element.styleId };
    if (element.numbering?.isOrdered && !silentStyles.has(element.styleId ?? '')) {
      const number = numberHeading(depth);
      metadata.number = number;
      if (!STARTS_NUMBERED.test(`${text} `)) text = `${number} ${text}`;
    }
    while ((open.at(-1)?.depth ?? 0) >= depth) open.pop();
    const section: SectionNode = { type: 'section', title: text, children: [], metadata };
    target().push(section);
    open.push({ depth, section });
    // Images inside a heading follow it as the section's first leaves.
    for (const part of inlineParts(element.children, marker)) {
      if (typeof part === 'string') continue;
      const node = await images.collect(part);
      if (node) section.children.push(node);
    }
    return true;
  }

  async function titleParagraph(element: DocxParagraph): Promise<void> {
    const text = inlineText(element.children, marker).replace(/\s+/g, ' ');
    if (!text) return;
    if (title === undefined && (knownTitle === undefined || knownTitle === text)) {
      title = text;
      return;
    }
    flushList();
    target().push(...(await paragraphLeaves(element, { kind: 'title' })));
  }

  async function block(element: DocxElement): Promise<void> {
    if (element.type === 'table') {
      flushList();
      const { table, images: tableImages } = tableLeaves(element, marker);
      if (table) target().push(table);
      for (const image of tableImages) {
        const node = await images.collect(image);
        if (node) target().push(node);
      }
      return;
    }
    if (element.type !== 'paragraph') {
      if ('children' in element) for (const child of element.children ?? []) await block(child);
      return;
    }
    if (TOC_STYLE.test(element.styleName ?? '')) return;
    const level = headingLevel(element.styleName, element.styleId);
    if (level === 0) return titleParagraph(element);
    if (level !== undefined && (await heading(element, level))) return;
    if (element.numbering) {
      const leaves = await paragraphLeaves(element);
      const text = leaves
        .filter((leaf) => leaf.type === 'paragraph')
        .map((leaf) => leaf.text)
        .join('\n');
      if (text)
        list.push({
          text,
          level: Number(element.numbering.level) || 0,
          ordered: element.numbering.isOrdered,
        });
      const imageLeaves = leaves.filter((leaf) => leaf.type === 'image');
      if (imageLeaves.length) {
        flushList();
        target().push(...imageLeaves);
      }
      return;
    }
    flushList();
    const caption = CAPTION_STYLE.test(element.styleName ?? '');
    target().push(...(await paragraphLeaves(element, caption ? { kind: 'caption' } : undefined)));
  }

  for (const element of document.children) await block(element);
  flushList();

  // Notes met while writing notes are appended too, so the loop reads the growing list.
  for (let i = 0; i < notes.length; i++) {
    const reference = notes[i] as DocxNoteReference;
    const note = document.notes.resolve(reference);
    if (!note) continue;
    const body = note.body
      .map((child) => (child.type === 'paragraph' ? inlineText(child.children, marker) : ''))
      .filter((text) => text !== '')
      .join('\n');
    if (!body) continue;
    root.push(
      paragraph(`[^${i + 1}]: ${body}`, { kind: 'footnote', noteType: reference.noteType, number: i + 1 }),
    );
  }
  return title === undefined ? { children: root } : { children: root, title };
}

import type { ParagraphNode, SectionNode, TreeNode } from '../types.ts';
import type { BodyExtra } from './body-rewrite.ts';
import { headingLevel } from './heading-level.ts';
import type { DocxImages } from './images.ts';
import {
  cleanText,
  type InlineContext,
  inlineParts,
  inlineText,
  type NoteMarker,
  paragraphNumber,
} from './inline.ts';
import { type ListItem, listParagraph } from './list.ts';
import type { DocxComment, DocxDocument, DocxElement, DocxNoteReference, DocxParagraph } from './model.ts';
import { type InlineObject, tableLeaves } from './table.ts';

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
 * parser does: skipped levels still nest, text before the first heading stays at the top), headings
 * with the number Word shows for them, lists grouped, tables whole, images, charts and text boxes at
 * their place, comments after the paragraph they are on (`metadata.kind: 'comment'`), footnotes and
 * endnotes at the end.
 *
 * @param knownTitle the title from the core properties, if any; Title-styled paragraphs that repeat
 *   it are dropped, others become paragraphs.
 * @param extras what the body rewrite put at its bookmarks (`rewriteBody`): heading numbers, charts.
 */
export async function buildDocxTree(
  document: DocxDocument,
  images: DocxImages,
  knownTitle: string | undefined,
  extras: ReadonlyMap<string, BodyExtra> = new Map(),
): Promise<DocxTree> {
  const root: TreeNode[] = [];
  const open: { depth: number; section: SectionNode }[] = [];
  const notes: DocxNoteReference[] = [];
  const noteNumbers = new Map<string, number>();
  const comments = new Map<string, DocxComment>(
    document.comments.map((comment) => [comment.commentId, comment]),
  );
  /** Comments met in a block, placed after it (after a list, once the list ends). */
  let pendingComments: string[] = [];
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
  const context: InlineContext = { marker, extras };
  const target = () => open.at(-1)?.section.children ?? root;
  const placeComments = () => {
    for (const id of pendingComments) {
      const comment = comments.get(id);
      const body = comment?.body
        .map((child) => (child.type === 'paragraph' ? inlineText(child.children, context) : ''))
        .filter((text) => text !== '')
        .join('\n');
      if (!comment || !body) continue;
      const author = comment.authorName?.trim();
      const metadata: Record<string, unknown> = { kind: 'comment' };
      if (author) metadata.author = author;
      target().push(paragraph(`${author ? `Comment by ${author}` : 'Comment'}: ${body}`, metadata));
    }
    pendingComments = [];
  };
  const flushList = () => {
    if (list.length) target().push(listParagraph(list));
    list = [];
    placeComments();
  };

  /** The leaves an inline object stands for; comment references are noted for after the block. */
  async function objectLeaves(part: InlineObject): Promise<TreeNode[]> {
    if (part.type === 'commentReference') {
      pendingComments.push(part.commentId);
      return [];
    }
    if (part.type === 'extra') return part.extra.kind === 'leaves' ? part.extra.nodes : [];
    const node = await images.collect(part);
    return node ? [node] : [];
  }

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
    for (const part of inlineParts(element.children, context)) {
      if (typeof part === 'string') {
        run += part;
        continue;
      }
      const nodes = await objectLeaves(part);
      if (nodes.length === 0) continue;
      flush();
      out.push(...nodes);
    }
    flush();
    return out;
  }

  async function heading(element: DocxParagraph, depth: number): Promise<boolean> {
    const parts = inlineParts(element.children, context);
    let text = cleanText(parts.filter((part): part is string => typeof part === 'string').join('')).replace(
      /\s+/g,
      ' ',
    );
    if (!text) return false;
    flushList();
    const metadata: Record<string, unknown> = { style: element.styleName ?? element.styleId };
    const number = paragraphNumber(parts);
    if (number) {
      metadata.number = number;
      if (!STARTS_NUMBERED.test(`${text} `)) text = `${number} ${text}`;
    }
    while ((open.at(-1)?.depth ?? 0) >= depth) open.pop();
    const section: SectionNode = { type: 'section', title: text, children: [], metadata };
    target().push(section);
    open.push({ depth, section });
    // Images and charts inside a heading follow it as the section's first leaves, then its comments.
    for (const part of parts)
      if (typeof part !== 'string') section.children.push(...(await objectLeaves(part)));
    placeComments();
    return true;
  }

  async function titleParagraph(element: DocxParagraph): Promise<void> {
    const text = inlineText(element.children, context).replace(/\s+/g, ' ');
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
      const { table, objects } = tableLeaves(element, context);
      if (table) target().push(table);
      for (const part of objects) target().push(...(await objectLeaves(part)));
      placeComments();
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
      // The item's own text only: images, charts (title and table) and diagrams follow the list.
      const parts = inlineParts(element.children, context);
      let run = '';
      const objects: TreeNode[] = [];
      for (const part of parts) {
        if (typeof part === 'string') run += part;
        else {
          const nodes = await objectLeaves(part);
          if (nodes.length) run += '\n';
          objects.push(...nodes);
        }
      }
      const text = cleanText(run);
      if (text) {
        const label = paragraphNumber(parts);
        list.push({
          text,
          level: Number(element.numbering.level) || 0,
          ordered: element.numbering.isOrdered,
          ...(label === undefined ? {} : { label }),
        });
      }
      if (objects.length) {
        flushList();
        target().push(...objects);
      }
      return;
    }
    flushList();
    const caption = CAPTION_STYLE.test(element.styleName ?? '');
    target().push(...(await paragraphLeaves(element, caption ? { kind: 'caption' } : undefined)));
    placeComments();
  }

  for (const element of document.children) await block(element);
  flushList();

  // Notes met while writing notes are appended too, so the loop reads the growing list.
  for (let i = 0; i < notes.length; i++) {
    const reference = notes[i] as DocxNoteReference;
    const note = document.notes.resolve(reference);
    if (!note) continue;
    const body = note.body
      .map((child) => (child.type === 'paragraph' ? inlineText(child.children, context) : ''))
      .filter((text) => text !== '')
      .join('\n');
    if (!body) continue;
    root.push(
      paragraph(`[^${i + 1}]: ${body}`, { kind: 'footnote', noteType: reference.noteType, number: i + 1 }),
    );
  }
  return title === undefined ? { children: root } : { children: root, title };
}

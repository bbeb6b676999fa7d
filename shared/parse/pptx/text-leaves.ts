import { type ListItem, listParagraph } from '../docx/list.ts';
import type { ParagraphNode } from '../types.ts';
import type { TextLine } from './text-body.ts';

/**
 * Turns one shape's paragraphs into paragraph nodes in order: consecutive bulleted paragraphs form
 * one list paragraph (`metadata.kind: 'list'`, as the DOCX parser writes it), other consecutive lines
 * one paragraph; an empty paragraph ends a block. `bulleted` says whether paragraphs without a bullet
 * of their own are list items (body placeholders, whose master style gives them bullets).
 */
export function textLeaves(
  lines: readonly TextLine[],
  bulleted: boolean,
  metadata: Record<string, unknown>,
): ParagraphNode[] {
  const out: ParagraphNode[] = [];
  let plain: string[] = [];
  let list: (ListItem & { raw: number })[] = [];
  const flushPlain = () => {
    if (plain.length) out.push({ type: 'paragraph', text: plain.join('\n'), metadata: { ...metadata } });
    plain = [];
  };
  const flushList = () => {
    if (list.length) {
      // A list indented as a whole (every item at level 1 or deeper) still starts at the margin.
      const base = Math.min(...list.map((item) => item.raw));
      const node = listParagraph(list.map((item) => ({ ...item, level: item.raw - base })));
      out.push({ ...node, metadata: { ...node.metadata, ...metadata } });
    }
    list = [];
  };
  for (const line of lines) {
    if (line.text === '') {
      flushPlain();
      flushList();
      continue;
    }
    const isItem =
      line.bullet === 'bullet' || line.bullet === 'number' || (line.bullet === 'inherited' && bulleted);
    if (isItem) {
      flushPlain();
      list.push({ text: line.text, level: 0, raw: line.level, ordered: line.bullet === 'number' });
    } else {
      flushList();
      plain.push(line.text);
    }
  }
  flushPlain();
  flushList();
  return out;
}

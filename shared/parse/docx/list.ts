import type { ParagraphNode } from '../types.ts';

/** One list paragraph of a Word document: its text, nesting level and whether it is numbered. */
export interface ListItem {
  text: string;
  level: number;
  ordered: boolean;
}

/**
 * Consecutive list paragraphs as one paragraph node of Markdown list lines (`- item`, `1. item`),
 * indented two spaces per level, numbered per level and restarted when a shallower item comes.
 */
export function listParagraph(items: readonly ListItem[]): ParagraphNode {
  const counters: number[] = [];
  const lines = items.map((item) => {
    counters.length = item.level + 1;
    counters[item.level] = (counters[item.level] ?? 0) + 1;
    const marker = item.ordered ? `${counters[item.level]}.` : '-';
    const indent = '  '.repeat(item.level);
    return `${indent}${marker} ${item.text.replace(/\n/g, `\n${indent}  `)}`;
  });
  return {
    type: 'paragraph',
    text: lines.join('\n'),
    metadata: { kind: 'list', ordered: items.every((item) => item.ordered) },
  };
}

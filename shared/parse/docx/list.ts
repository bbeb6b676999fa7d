import type { ParagraphNode } from '../types.ts';

/** One list paragraph of a Word document: its text, nesting level and whether it is numbered. */
export interface ListItem {
  text: string;
  level: number;
  ordered: boolean;
  /** The number Word shows in front of it ("2.", "a)", "1.3"; '' for none), from the list definition. */
  label?: string;
}

/**
 * Consecutive list paragraphs as one paragraph node of list lines, indented two spaces per level:
 * each numbered item marked as Word shows it (its `label`: "1.", "a)", "iv."), a bullet as `-`.
 * An ordered item without a label (no list definition to read) is numbered per level, restarted
 * when a shallower item comes.
 */
export function listParagraph(items: readonly ListItem[]): ParagraphNode {
  const counters: number[] = [];
  const lines = items.map((item) => {
    counters.length = item.level + 1;
    counters[item.level] = (counters[item.level] ?? 0) + 1;
    const counted = item.ordered ? `${counters[item.level]}.` : '-';
    // A level that shows no number ('') is marked as a bullet is.
    const marker = item.label === undefined ? counted : item.label || '-';
    const indent = '  '.repeat(item.level);
    return `${indent}${marker} ${item.text.replace(/\n/g, `\n${indent}  `)}`;
  });
  return {
    type: 'paragraph',
    text: lines.join('\n'),
    metadata: { kind: 'list', ordered: items.every((item) => item.ordered) },
  };
}

import type { SectionNode, TreeNode } from '../types.ts';

/** A heading line is short: longer lines are sentences that happen to start with a number. */
const MAX_LATIN_CHARS = 80;
const MAX_CJK_CHARS = 30;
/** Two headings at least before a flat text is believed to be numbered that way. */
const MIN_HEADINGS = 2;

const CN_NUM = '[一二三四五六七八九十百零〇两]+';
/** Numbering patterns and the level each gives; deeper numbering ("1.2.3") computes its own level. */
const LEVELS: readonly { pattern: RegExp; level: (match: RegExpMatchArray) => number }[] = [
  { pattern: new RegExp(`^第${CN_NUM}[章篇部]`, 'u'), level: () => 1 },
  { pattern: /^第\d+[章篇部]/u, level: () => 1 },
  { pattern: new RegExp(`^第${CN_NUM}节`, 'u'), level: () => 2 },
  { pattern: /^第\d+节/u, level: () => 2 },
  { pattern: new RegExp(`^${CN_NUM}[、.．]`, 'u'), level: () => 1 },
  { pattern: new RegExp(`^[（(]${CN_NUM}[)）]`, 'u'), level: () => 2 },
  { pattern: /^(?:chapter|part)\s+(?:\d+|[ivxlc]+)\b/iu, level: () => 1 },
  // Two digits a part at most: "2024 Budget" is a year, not a chapter.
  {
    pattern: /^(\d{1,2}(?:\.\d{1,2})*)(?:[.、．]\s*|\s+)(?=\S)/u,
    level: (m) => (m[1] ?? '').split('.').length,
  },
];
/** Marks a heading line does not end with (a numbered sentence or list item does). */
const SENTENCE_END = /[。．.!！?？;；,，、:：]$/u;

/**
 * The level of a line that looks like a numbered heading, or undefined.
 *
 * @example headingLevel('2.1 Data sources') // 2
 * @example headingLevel('1. Buy milk.') // undefined: a sentence
 */
export function headingLevel(text: string): number | undefined {
  const line = text.trim();
  if (line.includes('\n')) return undefined;
  const cjk = /[\u3400-\u9fff]/u.test(line);
  if ([...line].length > (cjk ? MAX_CJK_CHARS : MAX_LATIN_CHARS)) return undefined;
  for (const { pattern, level } of LEVELS) {
    const match = line.match(pattern);
    if (!match) continue;
    // "一、" alone is a heading; "1. Buy milk." is a sentence.
    const rest = line.slice(match[0].length).trim();
    return rest !== '' && SENTENCE_END.test(rest) ? undefined : level(match);
  }
  return undefined;
}

/**
 * Finds the headings of a flat text (docs/spec.md#inferred-headings: for text
 * that carries its outline only in numbering): single short lines like "第一章 概述", "一、项目背景",
 * "（二）预算", "1. Introduction", "2.1 Data" or "Chapter 3" become sections nested by their
 * numbering, with `metadata.inferred: true`. Returns the nodes unchanged unless at least two such
 * lines exist and most are followed by text; lists (in one paragraph, or numbered lines one after
 * another) and numbered sentences are never headings.
 */
export function inferHeadings(nodes: readonly TreeNode[]): TreeNode[] {
  const levels = nodes.map((node) =>
    node.type === 'paragraph' && !node.metadata?.kind ? headingLevel(node.text) : undefined,
  );
  const headings = levels.filter((level) => level !== undefined).length;
  if (headings < MIN_HEADINGS) return [...nodes];
  // Headings introduce text; numbered lines that mostly follow each other are a list.
  const introducing = levels.filter(
    (level, i) => level !== undefined && i + 1 < levels.length && levels[i + 1] === undefined,
  );
  if (introducing.length * 2 < headings) return [...nodes];
  const root: TreeNode[] = [];
  const stack: { level: number; section: SectionNode }[] = [];
  nodes.forEach((node, i) => {
    const level = levels[i];
    if (level === undefined || node.type !== 'paragraph') {
      (stack[stack.length - 1]?.section.children ?? root).push(node);
      return;
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? 0) >= level) stack.pop();
    const section: SectionNode = {
      type: 'section',
      title: node.text.trim(),
      children: [],
      metadata: { inferred: true },
    };
    (stack[stack.length - 1]?.section.children ?? root).push(section);
    stack.push({ level, section });
  });
  return root;
}

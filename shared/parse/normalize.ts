import { splitText } from './split-text.ts';
import type { ParagraphNode, ParsedDocument, TreeNode } from './types.ts';

/** Paragraph sizes from `config.limits`. */
export interface NormalizeLimits {
  maxParagraphChars: number;
  paragraphTargetChars: number;
}

/** Kinds of paragraph whose text must stay whole: cutting code changes its meaning. */
const WHOLE_KINDS = new Set(['code']);

function splitParagraph(node: ParagraphNode, limits: NormalizeLimits): ParagraphNode[] {
  if (node.text.length <= limits.maxParagraphChars || WHOLE_KINDS.has(String(node.metadata?.kind))) {
    return [node];
  }
  return splitText(node.text, limits.paragraphTargetChars, limits.maxParagraphChars).map((text) => {
    const piece: ParagraphNode = { type: 'paragraph', text };
    if (node.metadata) piece.metadata = { ...node.metadata };
    return piece;
  });
}

function normalizeNodes(nodes: readonly TreeNode[], limits: NormalizeLimits): TreeNode[] {
  return nodes.flatMap((node): TreeNode[] => {
    switch (node.type) {
      case 'paragraph':
        return node.text.trim() === '' ? [] : splitParagraph(node, limits);
      case 'section': {
        const children = normalizeNodes(node.children, limits);
        if (children.length === 0 && node.title.trim() === '') return [];
        return [{ ...node, children }];
      }
      default:
        return [node];
    }
  });
}

/**
 * Evens out a parsed tree before it is indexed (seed 000 §5.1.3): paragraphs over
 * `maxParagraphChars` are split at sentence ends into pieces near `paragraphTargetChars`; code
 * blocks and tables are never split; empty paragraphs and untitled empty sections are removed.
 * Pure: the input is not changed.
 */
export function normalizeTree(doc: ParsedDocument, limits: NormalizeLimits): ParsedDocument {
  return { ...doc, children: normalizeNodes(doc.children, limits) };
}

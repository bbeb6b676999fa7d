import { type SentenceSpan, sentenceSpans } from '#shared/text/sentence-spans.ts';
import { splitText } from '../split-text.ts';
import type { ParagraphNode, TreeNode } from '../types.ts';
import { chooseBreaks, splitAt } from './breaks.ts';
import { kindOf } from './tree-text.ts';
import type { VectorTable } from './vectors.ts';

export interface ParagraphSizes {
  maxParagraphChars: number;
  paragraphTargetChars: number;
}

/** Kinds of paragraph whose text must stay whole: cutting code changes its meaning. */
const WHOLE_KINDS = new Set(['code']);
/**
 * Sentences embedded per document for paragraph splitting; paragraphs beyond the budget are split
 * by length alone (splitText), so a huge unbroken text cannot exhaust memory or a model quota.
 */
const MAX_SENTENCES = 20_000;

/**
 * Splits every paragraph longer than `maxParagraphChars` (docs/spec.md#paragraph-splitting): all
 * their sentences are embedded in batched calls, each piece ends where adjacent sentences are least
 * similar once it holds 0.8-1.2x `paragraphTargetChars`; a piece still over the maximum (a single
 * huge sentence) falls back to `splitText`. Code is never split; metadata is kept on each piece.
 */
export async function splitLongParagraphs(
  nodes: readonly TreeNode[],
  sizes: ParagraphSizes,
  vectors: VectorTable,
): Promise<TreeNode[]> {
  const spansOf = new Map<ParagraphNode, SentenceSpan[]>();
  let budget = MAX_SENTENCES;
  const collect = (list: readonly TreeNode[]) => {
    for (const node of list) {
      if (node.type === 'section') collect(node.children);
      else if (node.type === 'paragraph' && isLong(node, sizes)) {
        const spans = sentenceSpans(node.text);
        if (spans.length > 1 && spans.length <= budget) {
          spansOf.set(node, spans);
          budget -= spans.length;
        }
      }
    }
  };
  collect(nodes);
  await vectors.add([...spansOf.values()].flatMap((spans) => spans.map((span) => span.text)));

  const rebuild = (list: readonly TreeNode[]): TreeNode[] =>
    list.flatMap((node): TreeNode[] => {
      if (node.type === 'section') return [{ ...node, children: rebuild(node.children) }];
      if (node.type !== 'paragraph' || !isLong(node, sizes)) return [node];
      return semanticSplit(node.text, spansOf.get(node), sizes, vectors).map((text) => {
        const piece: ParagraphNode = { type: 'paragraph', text };
        if (node.metadata) piece.metadata = { ...node.metadata };
        return piece;
      });
    });
  return rebuild(nodes);
}

function isLong(node: ParagraphNode, sizes: ParagraphSizes): boolean {
  return node.text.length > sizes.maxParagraphChars && !WHOLE_KINDS.has(kindOf(node) ?? '');
}

/** Cuts at the least similar adjacent sentences near the target; `splitText` for whatever is still too long. */
function semanticSplit(
  text: string,
  spans: SentenceSpan[] | undefined,
  sizes: ParagraphSizes,
  vectors: VectorTable,
): string[] {
  const target = Math.min(sizes.paragraphTargetChars, sizes.maxParagraphChars);
  const fallback = (piece: string) => splitText(piece, target, sizes.maxParagraphChars);
  if (!spans) return fallback(text);
  const units = spans.map((span, i) => ({
    // A sentence's size runs to the next one's start, so sizes add up to offsets in the text.
    size: (spans[i + 1]?.start ?? span.end) - span.start,
    vector: vectors.get(span.text),
    cutBefore: true,
  }));
  const breaks = chooseBreaks(units, {
    min: target * 0.8,
    max: target * 1.2,
    whole: target * 1.2,
    minRest: target * 0.2,
    span: 1,
  });
  return splitAt(spans, breaks)
    .map((group) => text.slice(group[0]?.start ?? 0, group[group.length - 1]?.end ?? 0).trim())
    .flatMap((piece) => (piece.length > sizes.maxParagraphChars ? fallback(piece) : [piece]))
    .filter((piece) => piece !== '');
}

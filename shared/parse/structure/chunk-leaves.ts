import type { TreeNode } from '../types.ts';
import { type BreakWindow, chooseBreaks, splitAt } from './breaks.ts';
import { type Leaf, leafText, mayStartPiece, unitText } from './tree-text.ts';
import { sumVectors, type Vector, type VectorTable } from './vectors.ts';

/**
 * Piece sizes for sections of at most `maxSectionChars`: pieces of a quarter to three quarters of
 * it, the cut at the strongest topic shift in between; a rest of 60% or less stays whole.
 */
export function sectionWindow(maxSectionChars: number): BreakWindow {
  return {
    min: maxSectionChars * 0.25,
    max: maxSectionChars * 0.75,
    whole: maxSectionChars * 0.6,
    minRest: maxSectionChars * 0.25,
    span: 2,
  };
}

/** A run of leaves that becomes one generated section, with its summed vector for grouping. */
export interface LeafChunk {
  leaves: Leaf[];
  size: number;
  vector: Vector | undefined;
}

/**
 * Groups leaves into chunks at topic shifts (docs/spec.md#generated-sections): the similarity at
 * each boundary compares the two leaves on either side; chunks never start with a table, image,
 * code block, caption or the rest of a list. Vectors must already be in `vectors` (`unitText`).
 */
export function chunkLeaves(leaves: readonly Leaf[], vectors: VectorTable, window: BreakWindow): LeafChunk[] {
  const units = leaves.map((leaf, i) => ({
    size: leafText(leaf).length,
    vector: vectors.get(unitText(leaf)),
    cutBefore: mayStartPiece(leaf, leaves[i - 1]),
  }));
  const breaks = chooseBreaks(units, window);
  const unitGroups = splitAt(units, breaks);
  return splitAt(leaves, breaks).map((group, i) => {
    const groupUnits = unitGroups[i] ?? [];
    return {
      leaves: group,
      size: groupUnits.reduce((sum, unit) => sum + unit.size, 0),
      vector: sumVectors(groupUnits.map((unit) => unit.vector)),
    };
  });
}

/**
 * Splits chunks into about `groups` runs of neighbours (docs/spec.md#generated-sections, kept
 * in reading order): each cut where adjacent chunks are least alike, near an even share of the
 * text, every group at least two chunks.
 */
export function groupChunks<T extends { size: number; vector: Vector | undefined }>(
  chunks: readonly T[],
  groups: number,
): T[][] {
  const total = chunks.reduce((sum, chunk) => sum + chunk.size, 0);
  const share = total / groups;
  const breaks = chooseBreaks(
    chunks.map((chunk) => ({ size: chunk.size, vector: chunk.vector, cutBefore: true })),
    { min: share * 0.5, max: share * 1.5, whole: share * 1.25, minRest: share * 0.5, span: 1, minUnits: 2 },
  );
  return splitAt(chunks, breaks);
}

/** True when the nodes are all leaves (no section among them). */
export function allLeaves(nodes: readonly TreeNode[]): nodes is Leaf[] {
  return nodes.every((node) => node.type !== 'section');
}

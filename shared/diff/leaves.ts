import { diffArrays } from 'diff';
import type { LeafChange, LeafSide, OutlineLeaf } from './types.ts';
import { similarity, tokenSet, wordDiff } from './words.ts';

/** Below this likeness a removed and an added paragraph are two different paragraphs, not one edited. */
const CHANGED_MIN_SIMILARITY = 0.4;

/**
 * The changes between a section's leaves in two versions. Leaves are aligned by an LCS on their
 * signatures; in each run of removed-then-added leaves, a removed leaf is paired, in order, with the
 * first added leaf of the same kind that is alike enough: that pair is one changed leaf (with its word
 * changes), the rest are removed or added.
 */
export function diffLeaves(before: readonly OutlineLeaf[], after: readonly OutlineLeaf[]): LeafChange[] {
  const changes: LeafChange[] = [];
  let removed: OutlineLeaf[] = [];
  let added: OutlineLeaf[] = [];
  const flush = () => {
    changes.push(...pairHunk(removed, added));
    removed = [];
    added = [];
  };
  const parts = diffArrays([...before], [...after], { comparator: (a, b) => a.signature === b.signature });
  for (const part of parts) {
    if (part.removed) removed.push(...part.value);
    else if (part.added) added.push(...part.value);
    else flush();
  }
  flush();
  return changes;
}

/** Every leaf reported as added (a new section) or removed (a section gone). */
export function allLeaves(leaves: readonly OutlineLeaf[], change: 'added' | 'removed'): LeafChange[] {
  return leaves.map((leaf) => ({
    change,
    kind: leaf.kind,
    [change === 'added' ? 'to' : 'from']: sideOf(leaf),
  }));
}

function pairHunk(removed: OutlineLeaf[], added: OutlineLeaf[]): LeafChange[] {
  if (removed.length === 0 && added.length === 0) return [];
  const addedTokens = added.map((leaf) => tokenSet(leaf.text));
  const partner = new Map<number, number>();
  let next = 0;
  for (let r = 0; r < removed.length && next < added.length; r += 1) {
    const leaf = removed[r] as OutlineLeaf;
    const tokens = tokenSet(leaf.text);
    for (let a = next; a < added.length; a += 1) {
      const candidate = added[a] as OutlineLeaf;
      if (candidate.kind !== leaf.kind) continue;
      if (
        leaf.kind === 'image' ||
        similarity(tokens, addedTokens[a] as Set<string>) >= CHANGED_MIN_SIMILARITY
      ) {
        partner.set(r, a);
        next = a + 1;
        break;
      }
    }
  }
  // In the new version's order: added leaves (and changed ones at their new place), each removed
  // leaf before the first added leaf that follows it.
  const changes: LeafChange[] = [];
  const pairedAdded = new Map([...partner].map(([r, a]) => [a, r]));
  let r = 0;
  const emitRemovedUpTo = (limit: number) => {
    for (; r < limit; r += 1) {
      if (!partner.has(r)) changes.push(...allLeaves([removed[r] as OutlineLeaf], 'removed'));
    }
  };
  added.forEach((leaf, a) => {
    const from = pairedAdded.get(a);
    if (from === undefined) {
      changes.push(...allLeaves([leaf], 'added'));
      return;
    }
    emitRemovedUpTo(from);
    r = from + 1;
    const old = removed[from] as OutlineLeaf;
    changes.push({
      change: 'changed',
      kind: leaf.kind,
      from: sideOf(old),
      to: sideOf(leaf),
      ...(leaf.kind === 'image' ? {} : { words: wordDiff(old.text, leaf.text) }),
    });
  });
  emitRemovedUpTo(removed.length);
  return changes;
}

function sideOf(leaf: OutlineLeaf): LeafSide {
  return { nodeId: leaf.nodeId, ordinal: leaf.ordinal, text: leaf.text };
}

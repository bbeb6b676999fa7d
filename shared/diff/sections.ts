import type { OutlineSection } from './types.ts';
import { similarity, tokenSet } from './words.ts';

/** A section renamed keeps at least this much of its text (its own and its subsections'). */
const RENAMED_MIN_SIMILARITY = 0.5;

export interface SectionMatch {
  /** New section → the old section it continues (absent: added). */
  oldOf: Map<OutlineSection, OutlineSection>;
  /** New sections whose old counterpart sits elsewhere (another parent or another sibling order). */
  moved: Set<OutlineSection>;
}

/**
 * Pairs the sections of two versions: first among the children of paired parents (same title, then
 * a renamed one by content), then across the whole tree (a section moved under another parent, by
 * title, then by content). Paired siblings out of their old relative order count as moved.
 */
export function matchSections(before: OutlineSection, after: OutlineSection): SectionMatch {
  const oldOf = new Map<OutlineSection, OutlineSection>([[after, before]]);
  const used = new Set<OutlineSection>([before]);
  const tokens = new Map<OutlineSection, Set<string>>();
  const textOf = (section: OutlineSection) => {
    let set = tokens.get(section);
    if (!set) {
      set = tokenSet(subtreeText(section));
      tokens.set(section, set);
    }
    return set;
  };
  const pair = (o: OutlineSection, n: OutlineSection) => {
    oldOf.set(n, o);
    used.add(o);
    matchChildren(o, n);
  };
  const matchChildren = (o: OutlineSection, n: OutlineSection) => {
    const free = () => o.children.filter((c) => !used.has(c));
    for (const child of n.children) {
      if (oldOf.has(child)) continue;
      const same = free().find((c) => c.title === child.title);
      if (same) pair(same, child);
    }
    for (const child of n.children) {
      if (oldOf.has(child)) continue;
      const renamed = mostAlike(child, free(), textOf);
      if (renamed) pair(renamed, child);
    }
  };
  matchChildren(before, after);

  const newSections = flatten(after);
  const oldSections = flatten(before);
  const unmatched = () => oldSections.filter((s) => !used.has(s));
  for (const section of newSections) {
    if (oldOf.has(section)) continue;
    const candidate = unmatched().find((s) => s.title === section.title && s.title !== '');
    if (candidate) pair(candidate, section);
  }
  for (const section of newSections) {
    if (oldOf.has(section)) continue;
    const candidate = mostAlike(section, unmatched(), textOf);
    if (candidate) pair(candidate, section);
  }

  const oldParent = parents(before);
  const moved = new Set<OutlineSection>();
  for (const [section, parent] of parents(after)) {
    const old = oldOf.get(section);
    if (old && oldOf.get(parent) !== oldParent.get(old)) moved.add(section);
  }
  for (const section of [after, ...newSections]) {
    for (const child of reordered(section, oldOf)) moved.add(child);
  }
  return { oldOf, moved };
}

/**
 * Among a section's children that continue children of its old counterpart, those outside the
 * longest run kept in old order have been moved among their siblings.
 */
function reordered(parent: OutlineSection, oldOf: Map<OutlineSection, OutlineSection>): OutlineSection[] {
  const oldParent = oldOf.get(parent);
  if (!oldParent) return [];
  const kept = parent.children.filter((c) => oldParent.children.includes(oldOf.get(c) as OutlineSection));
  const order = kept.map((c) => (oldOf.get(c) as OutlineSection).ordinal);
  const inOrder = longestIncreasing(order);
  return kept.filter((_, i) => !inOrder.has(i));
}

/** Indexes of one longest strictly increasing subsequence (patience sorting, O(n log n)). */
export function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = [];
  values.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((values[tails[mid] as number] as number) < value) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? (tails[lo - 1] as number) : -1;
    tails[lo] = i;
  });
  const kept = new Set<number>();
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i] as number) kept.add(i);
  return kept;
}

function mostAlike(
  section: OutlineSection,
  candidates: readonly OutlineSection[],
  textOf: (s: OutlineSection) => Set<string>,
): OutlineSection | undefined {
  const mine = textOf(section);
  if (mine.size === 0) return undefined;
  let best: OutlineSection | undefined;
  let bestScore = RENAMED_MIN_SIMILARITY;
  for (const candidate of candidates) {
    const score = similarity(mine, textOf(candidate));
    if (score >= bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function subtreeText(section: OutlineSection): string {
  return [...section.leaves.map((leaf) => leaf.text), ...section.children.map(subtreeText)].join('\n');
}

/** The sections under `root` in reading order (not `root` itself). */
export function flatten(root: OutlineSection): OutlineSection[] {
  const out: OutlineSection[] = [];
  const visit = (section: OutlineSection) => {
    for (const child of section.children) {
      out.push(child);
      visit(child);
    }
  };
  visit(root);
  return out;
}

/** Each section under `root` → its parent section. */
function parents(root: OutlineSection): Map<OutlineSection, OutlineSection> {
  const out = new Map<OutlineSection, OutlineSection>();
  const visit = (section: OutlineSection) => {
    for (const child of section.children) {
      out.set(child, section);
      visit(child);
    }
  };
  visit(root);
  return out;
}

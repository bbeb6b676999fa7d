import { allLeaves, diffLeaves } from './leaves.ts';
import { flatten, matchSections } from './sections.ts';
import type { DiffSummary, OutlineSection, SectionChange, VersionOutline } from './types.ts';

/**
 * The structural diff of two outlines: sections added, removed, renamed, moved or with changed
 * leaves, in the new version's reading order (a removed section after the section that preceded it),
 * with counts. Unchanged sections are left out.
 *
 * @example diffOutlines(v1, v2).summary.paragraphs // { added: 1, removed: 0, changed: 2 }
 */
export function diffOutlines(
  before: VersionOutline,
  after: VersionOutline,
): { summary: DiffSummary; sections: SectionChange[] } {
  const { oldOf, moved } = matchSections(before.root, after.root);
  const ordered: { at: number; change: SectionChange }[] = [];
  const newOrdinalOf = new Map<OutlineSection, number>();
  for (const section of [after.root, ...flatten(after.root)]) {
    const old = oldOf.get(section);
    if (old) newOrdinalOf.set(old, section.ordinal);
    const change = sectionChange(section, old, moved.has(section));
    if (change) ordered.push({ at: section.ordinal, change });
  }
  // A removed section goes right after the new place of the old section before it.
  let anchor = 0;
  for (const old of [before.root, ...flatten(before.root)]) {
    const kept = newOrdinalOf.get(old);
    if (kept !== undefined) {
      anchor = kept;
      continue;
    }
    anchor += 1e-6;
    ordered.push({
      at: anchor,
      change: { status: 'removed', path: old.path, leaves: allLeaves(old.leaves, 'removed') },
    });
  }
  ordered.sort((a, b) => a.at - b.at);
  const sections = ordered.map((entry) => entry.change);
  return { summary: summarize(sections), sections };
}

function sectionChange(
  section: OutlineSection,
  old: OutlineSection | undefined,
  moved: boolean,
): SectionChange | undefined {
  if (!old) return { status: 'added', path: section.path, leaves: allLeaves(section.leaves, 'added') };
  const leaves = diffLeaves(old.leaves, section.leaves);
  // The root's title is the document's: a new title shows in the diff's from/to, not as a section.
  const renamed = section.path.length > 0 && old.title !== section.title;
  if (renamed) return { status: 'renamed', path: section.path, fromPath: old.path, moved, leaves };
  if (moved) return { status: 'moved', path: section.path, fromPath: old.path, leaves };
  return leaves.length > 0 ? { status: 'modified', path: section.path, leaves } : undefined;
}

function summarize(sections: readonly SectionChange[]): DiffSummary {
  const counts = () => ({ added: 0, removed: 0, changed: 0 });
  const summary: DiffSummary = {
    sections: { added: 0, removed: 0, renamed: 0, moved: 0, modified: 0 },
    paragraphs: counts(),
    tables: counts(),
    images: counts(),
  };
  for (const section of sections) {
    if (section.path.length > 0) summary.sections[section.status] += 1;
    for (const leaf of section.leaves) {
      const kind = leaf.kind === 'table' ? 'tables' : leaf.kind === 'image' ? 'images' : 'paragraphs';
      summary[kind][leaf.change] += 1;
    }
  }
  return summary;
}

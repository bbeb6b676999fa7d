import { type DocumentDiff, diffVersions, type LeafChange, type SectionChange } from '#shared/diff/index.ts';
import { hydrateHits } from '#shared/search/hydrate.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { segment } from '#shared/text/segment.ts';
import type { QaDeps } from '../deps.ts';

const MAX_SECTIONS = 8;
const MAX_LEAVES_PER_SECTION = 3;

/** One change, with the passages that show it: the old one (version `from`) and/or the new one. */
export interface ChangeItem {
  section: SectionChange;
  leaf?: LeafChange;
  before?: SearchHit;
  after?: SearchHit;
}

export interface Comparison {
  diff: DocumentDiff;
  /** The changes most related to the question first. */
  items: ChangeItem[];
  /** Every passage of the items, old and new, each carrying its version. */
  passages: SearchHit[];
}

/**
 * What changed in a document between two versions (versions named by the question: none → previous
 * vs current, one → that version vs the one before, two → those), with the changed passages of both
 * versions loaded as search hits (so they are cited with their version). The changes sharing the
 * most words with the question come first.
 */
export async function compareVersions(
  deps: QaDeps,
  documentId: string,
  versions: readonly number[],
  question: string,
): Promise<Comparison> {
  const range = versions.length >= 2 ? { from: versions[0], to: versions.at(-1) } : { to: versions[0] };
  // A document id the model or the asker names may be in a collection the asker cannot read.
  const diff = await diffVersions(deps.db, deps.access, documentId, range);
  const asked = new Set(segment(question));
  const scored = diff.sections.map((section, i) => ({ section, i, score: overlap(asked, section) }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen = scored.slice(0, MAX_SECTIONS).map((entry) => entry.section);
  const ids = chosen.flatMap((section) =>
    section.leaves
      .slice(0, MAX_LEAVES_PER_SECTION)
      .flatMap((leaf) => [leaf.from?.nodeId, leaf.to?.nodeId].filter((id): id is string => !!id)),
  );
  const hits = new Map(
    (
      await hydrateHits(
        deps.db,
        deps.access,
        ids.map((nodeId) => ({ nodeId, score: 0 })),
      )
    ).map((h) => [h.nodeId, h]),
  );
  const items: ChangeItem[] = [];
  for (const section of chosen) {
    const leaves = section.leaves.slice(0, MAX_LEAVES_PER_SECTION);
    if (leaves.length === 0) items.push({ section });
    for (const leaf of leaves) {
      items.push({
        section,
        leaf,
        before: leaf.from ? hits.get(leaf.from.nodeId) : undefined,
        after: leaf.to ? hits.get(leaf.to.nodeId) : undefined,
      });
    }
  }
  const passages = items.flatMap((item) => [item.before, item.after].filter((h): h is SearchHit => !!h));
  return { diff, items, passages };
}

function overlap(asked: ReadonlySet<string>, section: SectionChange): number {
  const text = [
    ...section.path,
    ...section.leaves.flatMap((l) => [l.from?.text ?? '', l.to?.text ?? '']),
  ].join(' ');
  return new Set(segment(text).filter((word) => asked.has(word))).size;
}

/**
 * The offline answer: which versions were compared and the counts, then each change quoting the
 * old and the new passage, cited.
 *
 * @example
 * // What changed in refunds.md from version 1 to version 2: 1 paragraph changed.
 * // - Refund window: version 1 said "…14 days…" [1]; version 2 says "…30 days…" [2].
 */
export function extractiveComparisonAnswer(comparison: Comparison, name: string): string {
  const { diff, items, passages } = comparison;
  const cite = (hit: SearchHit | undefined) => (hit ? ` [${passages.indexOf(hit) + 1}]` : '');
  const { from, to } = diff;
  const lines = [`What changed in ${name} from version ${from.version} to version ${to.version}:`];
  if (from.title !== to.title) lines.push(`- The title: "${from.title}" became "${to.title}".`);
  if (items.length === 0 && from.title === to.title) lines.push('- Nothing in the text changed.');
  for (const item of items) {
    const where = item.section.path.join(' > ') || name;
    const { leaf, section } = item;
    if (!leaf) {
      lines.push(`- ${sectionEvent(section)}`);
      continue;
    }
    const old = `"${leaf.from?.text ?? ''}"`;
    const now = `"${leaf.to?.text ?? ''}"`;
    if (section.status === 'added') lines.push(`- New section "${where}": ${now}${cite(item.after)}.`);
    else if (section.status === 'removed')
      lines.push(`- Removed section "${where}": ${old}${cite(item.before)}.`);
    else if (leaf.change === 'changed') {
      lines.push(
        `- ${where}: version ${from.version} said ${old}${cite(item.before)}; version ${to.version} says ${now}${cite(item.after)}.`,
      );
    } else if (leaf.change === 'added')
      lines.push(`- ${where}: added in version ${to.version}: ${now}${cite(item.after)}.`);
    else lines.push(`- ${where}: removed in version ${to.version}: ${old}${cite(item.before)}.`);
  }
  const more = comparison.diff.sections.length - new Set(items.map((i) => i.section)).size;
  if (more > 0) lines.push(`(${more} more changed section(s): see the version diff.)`);
  return lines.join('\n');
}

function sectionEvent(section: SectionChange): string {
  const path = section.path.join(' > ');
  const was = section.fromPath?.join(' > ') ?? '';
  switch (section.status) {
    case 'added':
      return `New section "${path}".`;
    case 'removed':
      return `Removed section "${path}".`;
    case 'renamed':
      return `Section "${was}" renamed to "${path}".`;
    default:
      return `Section "${path}" moved (was "${was}").`;
  }
}

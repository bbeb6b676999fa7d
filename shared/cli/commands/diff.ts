import { z } from 'zod';
import type { Config } from '../../config/index.ts';
import type { DocumentDiff, LeafChange, SectionChange, WordChange } from '../../diff/index.ts';
import { versionNumber } from '../../search/version-number.ts';
import { openReader } from '../backend.ts';

const rangeOptions = z.object({
  from: versionNumber.optional(),
  to: versionNumber.optional(),
});

/**
 * `dropqa diff <key or id> [--from N] [--to M] [--json]`: what changed between two versions
 * (default: the previous and the current one), section by section, with word changes marked
 * `[-old-]{+new+}`.
 */
export async function diffCommand(
  config: Config,
  keyOrId: string,
  options: { json: boolean; from?: string; to?: string },
): Promise<number> {
  if (!keyOrId) throw new Error('usage: dropqa diff <key or id> [--from N] [--to M] [--json]');
  const range = rangeOptions.parse({ from: options.from, to: options.to });
  const backend = await openReader(config);
  try {
    const diff = await backend.diff(keyOrId, range);
    process.stdout.write(options.json ? `${JSON.stringify(diff)}\n` : renderDiff(diff));
    return 0;
  } finally {
    await backend.close();
  }
}

const MARK: Record<SectionChange['status'], string> = {
  added: '+',
  removed: '-',
  renamed: '»',
  moved: '»',
  modified: '~',
};

/** The diff as text: a header with the counts, then each changed section and its changed leaves. */
export function renderDiff(diff: DocumentDiff): string {
  const { sections: s, paragraphs: p, tables: t, images: i } = diff.summary;
  const lines = [
    `${diff.key}: version ${diff.from.version} → ${diff.to.version}`,
    `sections: ${s.added} added, ${s.removed} removed, ${s.renamed} renamed, ${s.moved} moved, ${s.modified} modified`,
    `paragraphs: ${counts(p)}; tables: ${counts(t)}; images: ${counts(i)}`,
  ];
  if (diff.from.title !== diff.to.title) lines.push(`title: ${diff.from.title} → ${diff.to.title}`);
  if (diff.sections.length === 0) lines.push('', 'no changes in the text');
  for (const section of diff.sections) {
    const path = section.path.join(' > ') || '(document start)';
    const from = section.fromPath ? ` (was ${section.fromPath.join(' > ')})` : '';
    lines.push(
      '',
      `${MARK[section.status]} ${path} [${section.status}${section.moved ? ', moved' : ''}]${from}`,
    );
    for (const leaf of section.leaves) lines.push(`  ${leafLine(leaf)}`);
  }
  return `${lines.join('\n')}\n`;
}

function counts(c: { added: number; removed: number; changed: number }): string {
  return `+${c.added} -${c.removed} ~${c.changed}`;
}

function leafLine(leaf: LeafChange): string {
  const sign = leaf.change === 'added' ? '+' : leaf.change === 'removed' ? '-' : '~';
  const text = leaf.words ? markWords(leaf.words) : (leaf.to ?? leaf.from)?.text;
  const before = leaf.kind === 'image' && leaf.change === 'changed' ? ` (was: ${leaf.from?.text})` : '';
  return `${sign} ${leaf.kind}: ${oneLine(text ?? '')}${before}`;
}

function markWords(words: readonly WordChange[]): string {
  return words
    .map((w) => (w.op === 'equal' ? w.text : w.op === 'delete' ? `[-${w.text}-]` : `{+${w.text}+}`))
    .join('');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ');
}

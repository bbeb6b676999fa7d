import { describe, expect, it } from 'vitest';
import { en } from '../../../web/src/i18n/en.ts';
import { sideOf, statusLabel } from '../../../web/src/lib/diff.ts';
import type { LeafChange } from '../../../web/src/lib/types.ts';

/** The English catalogue's diff words, placeholders filled. */
const t = (key: string, named: Record<string, string> = {}) =>
  (en.diff[key.replace('diff.', '') as keyof typeof en.diff] as string).replace(
    /\{(\w+)\}/g,
    (_, k: string) => named[k] ?? '',
  );

const changed: LeafChange = {
  change: 'changed',
  kind: 'paragraph',
  from: { nodeId: 'a', ordinal: 1, text: 'within 14 days' },
  to: { nodeId: 'b', ordinal: 1, text: 'within 30 days' },
  words: [
    { op: 'equal', text: 'within ' },
    { op: 'delete', text: '14' },
    { op: 'insert', text: '30' },
    { op: 'equal', text: ' days' },
  ],
};

describe('sideOf', () => {
  it('spells each side of a changed passage with what changed marked', () => {
    expect(sideOf(changed, 'old')).toEqual([
      { text: 'within ', marked: false },
      { text: '14', marked: true },
      { text: ' days', marked: false },
    ]);
    expect(
      sideOf(changed, 'new')
        .map((p) => p.text)
        .join(''),
    ).toBe('within 30 days');
    expect(sideOf(changed, 'new').filter((p) => p.marked)).toEqual([{ text: '30', marked: true }]);
  });

  it('shows an added passage marked on the new side only', () => {
    const added: LeafChange = {
      change: 'added',
      kind: 'paragraph',
      to: { nodeId: 'c', ordinal: 2, text: 'New.' },
    };
    expect(sideOf(added, 'old')).toEqual([]);
    expect(sideOf(added, 'new')).toEqual([{ text: 'New.', marked: true }]);
  });

  it('names a renamed section that also moved', () => {
    expect(statusLabel('renamed', true, t)).toBe('renamed and moved');
    expect(statusLabel('modified', undefined, t)).toBe('changed');
  });
});

import type { LeafChange, WordChange } from './types.ts';

/** A piece of one side of a changed passage: `marked` when it is what changed on that side. */
export interface SidePiece {
  text: string;
  marked: boolean;
}

/**
 * One side of a leaf change for the side-by-side view: the old side is the equal and deleted words
 * (deleted marked), the new side the equal and inserted words (inserted marked). An added or removed
 * leaf is one marked piece on its side and nothing on the other.
 *
 * @example sideOf(change, 'old') // [{ text: 'within ', marked: false }, { text: '14', marked: true }, ...]
 */
export function sideOf(change: LeafChange, side: 'old' | 'new'): SidePiece[] {
  const own = side === 'old' ? change.from : change.to;
  if (!own) return [];
  if (!change.words)
    return [{ text: own.text, marked: change.change !== 'changed' || change.kind === 'image' }];
  const skip: WordChange['op'] = side === 'old' ? 'insert' : 'delete';
  return change.words.filter((w) => w.op !== skip).map((w) => ({ text: w.text, marked: w.op !== 'equal' }));
}

/** Looks a message up by key in the page's language, filling `{name}` placeholders. */
export type Translate = (key: string, named?: Record<string, string>) => string;

/** The words shown for a section's status ('modified' reads "changed"), through the page's catalogue. */
export function statusLabel(status: string, moved: boolean | undefined, t: Translate): string {
  const known = ['added', 'removed', 'renamed', 'moved', 'modified'].includes(status);
  const word = known ? t(`diff.${status}`) : status;
  return moved ? t('diff.andMoved', { status: word }) : word;
}

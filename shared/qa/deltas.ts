/** A `delta` event of the answer and summary streams. */
export interface DeltaEvent {
  type: 'delta';
  data: { text: string };
}

/**
 * A whole text written at once (offline answers, fallbacks) as `delta` events, one per line, each
 * keeping its newline: concatenated, the exact text.
 *
 * @example yield* textDeltas('TL;DR\nEvidence') // { text: 'TL;DR\n' }, { text: 'Evidence' }
 */
export function* textDeltas(text: string): Generator<DeltaEvent> {
  for (const line of text.split(/(?<=\n)/)) yield { type: 'delta', data: { text: line } };
}

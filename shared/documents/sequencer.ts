/** Sequencers are compared as fixed-width lower-case hex, so text order is write order. */
const WIDTH = 32;

/**
 * Normalizes a sequencer (S3's `detail.object.sequencer`, a hex string whose shorter forms compare
 * after left-padding with zeros) to fixed-width lower-case hex.
 *
 * @example normalizeSequencer('0055AED6DCD90281E5') // '00000000000000000055aed6dcd90281e5'.slice(-32)
 */
export function normalizeSequencer(sequencer: string): string {
  return sequencer.toLowerCase().padStart(WIDTH, '0');
}

let last = 0n;

/**
 * A sequencer for a write made by this process (an upload stored in the local bucket): strictly
 * increasing within the process and, being derived from the clock (milliseconds, 20 bits of counter
 * below), across restarts too.
 */
export function localSequencer(): string {
  const now = BigInt(Date.now()) << 20n;
  last = now > last ? now : last + 1n;
  return normalizeSequencer(last.toString(16));
}

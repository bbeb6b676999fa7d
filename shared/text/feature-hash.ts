import { isStopword } from './segment.ts';

/** Feature kinds, hashed with distinct seeds so "ab" the word and "ab" the bigram never collide by design. */
const CJK_UNIGRAM = 0x9e3779b1;
const CJK_BIGRAM = 0x85ebca77;
const WORD = 0xc2b2ae3d;
const TRIGRAM = 0x27d4eb2f;

/**
 * Relative weight of each kind: CJK bigrams and whole words carry most meaning; single characters
 * and sub-word trigrams add recall for inflections and unsegmented Chinese but are noisier.
 */
const WEIGHT_CJK_UNIGRAM = 0.5;
const WEIGHT_CJK_BIGRAM = 1;
const WEIGHT_WORD = 1;
const WEIGHT_TRIGRAM = 0.4;

/** One accumulated feature: its 32-bit hash and its summed weight (tf x kind weight). */
export interface FeatureSink {
  add(hash: number, weight: number): void;
}

/**
 * Emits the hashed character n-gram features of a text into `sink`: for each CJK run its characters
 * and character pairs, for each Latin/digit word the lower-cased word (stopwords skipped) and its
 * character trigrams with boundary marks. Input should already be NFKC-normalized and lower-cased.
 */
export function emitFeatures(text: string, sink: FeatureSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    if (isCjk(cp)) {
      let prev = -1;
      while (i < n) {
        const c = text.codePointAt(i) ?? 0;
        if (!isCjk(c)) break;
        if (!isStopword(String.fromCodePoint(c))) sink.add(mix(step(CJK_UNIGRAM, c)), WEIGHT_CJK_UNIGRAM);
        if (prev >= 0) sink.add(mix(step(step(CJK_BIGRAM, prev), c)), WEIGHT_CJK_BIGRAM);
        prev = c;
        i += c > 0xffff ? 2 : 1;
      }
    } else if (isWordChar(cp)) {
      const start = i;
      while (i < n) {
        const c = text.codePointAt(i) ?? 0;
        if (isCjk(c) || !isWordChar(c)) break;
        i += c > 0xffff ? 2 : 1;
      }
      emitWord(text, start, i, sink);
    } else {
      i += width;
    }
  }
}

function emitWord(text: string, start: number, end: number, sink: FeatureSink): void {
  const length = end - start;
  // Single letters ("s" of "it's") carry no meaning; single digits do.
  if (length === 1 && !isDigit(text.charCodeAt(start))) return;
  if (!(length <= 4 && isStopword(text.slice(start, end)))) {
    let h = WORD;
    for (let k = start; k < end; k++) h = step(h, text.charCodeAt(k));
    sink.add(mix(h), WEIGHT_WORD);
  }
  // Trigrams over "^word$": "data" -> "^da", "dat", "ata", "ta$".
  const START = 0x5e;
  const END = 0x24;
  for (let k = start - 1; k <= end - 2; k++) {
    const a = k < start ? START : text.charCodeAt(k);
    const b = text.charCodeAt(k + 1);
    const c = k + 2 >= end ? END : text.charCodeAt(k + 2);
    sink.add(mix(step(step(step(TRIGRAM, a), b), c)), WEIGHT_TRIGRAM);
  }
}

/** One FNV-1a round over a code point (or code unit). */
function step(hash: number, value: number): number {
  return Math.imul(hash ^ value, 0x01000193);
}

/** murmur3's finalizer: FNV-1a alone distributes its low bits poorly, and the bucket comes from them. */
function mix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordChar(cp: number): boolean {
  if (cp < 0x80)
    return (cp >= 0x61 && cp <= 0x7a) || isDigit(cp) || (cp >= 0x41 && cp <= 0x5a) || cp === 0x5f;
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

/** Han, Hiragana, Katakana and Hangul: scripts written without spaces between words. */
function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x3040 && cp <= 0x30ff) ||
    (cp >= 0x31f0 && cp <= 0x31ff) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3130 && cp <= 0x318f) ||
    (cp >= 0x20000 && cp <= 0x2fa1f)
  );
}

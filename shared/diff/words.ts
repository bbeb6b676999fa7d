import { diffArrays } from 'diff';
import { cutWords, segment } from '#shared/text/segment.ts';
import type { WordChange } from './types.ts';

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
/** CJK runs, word runs, whitespace runs, or any other single character: together, the whole text. */
const PIECES = new RegExp(`([${CJK}]+)|((?:(?![${CJK}])[\\p{L}\\p{N}_])+)|(\\s+)|([\\s\\S])`, 'gu');

/**
 * Splits text into the units a word diff compares: Latin words and numbers whole, CJK runs into
 * jieba words, whitespace and punctuation as their own pieces. The pieces concatenate back to the
 * text.
 *
 * @example diffTokens('退款期限为7天.') // ['退款', '期限', '为', '7', '天', '.']
 */
export function diffTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(PIECES)) {
    if (match[1]) tokens.push(...cutWords(match[1]));
    else tokens.push(match[0]);
  }
  return tokens;
}

/**
 * The word-level changes turning `before` into `after`: runs of equal, inserted and deleted words,
 * in order. The equal and deleted runs spell `before`; the equal and inserted runs spell `after`.
 *
 * @example wordDiff('within 14 days', 'within 30 days')
 * // [{op:'equal',text:'within '},{op:'delete',text:'14'},{op:'insert',text:'30'},{op:'equal',text:' days'}]
 */
export function wordDiff(before: string, after: string): WordChange[] {
  const parts: WordChange[] = diffArrays(diffTokens(before), diffTokens(after)).map((part) => ({
    op: part.added ? 'insert' : part.removed ? 'delete' : 'equal',
    text: part.value.join(''),
  }));
  return coalesce(parts);
}

/**
 * Joins changes split only by whitespace ("Ingrid Halvorsen" → "Tomas Vilkas" is one replacement,
 * not two words replaced around an unchanged space), then merges neighbours of the same kind, with
 * each block's deletion before its insertion.
 */
function coalesce(parts: readonly WordChange[]): WordChange[] {
  const out: WordChange[] = [];
  let deleted = '';
  let inserted = '';
  const flush = () => {
    if (deleted) out.push({ op: 'delete', text: deleted });
    if (inserted) out.push({ op: 'insert', text: inserted });
    deleted = '';
    inserted = '';
  };
  parts.forEach((part, i) => {
    const inBlock = deleted !== '' || inserted !== '';
    const next = parts[i + 1];
    if (part.op === 'delete') deleted += part.text;
    else if (part.op === 'insert') inserted += part.text;
    else if (inBlock && next && next.op !== 'equal' && /^\s+$/.test(part.text)) {
      deleted += part.text;
      inserted += part.text;
    } else {
      flush();
      const last = out.at(-1);
      if (last?.op === 'equal') last.text += part.text;
      else if (part.text) out.push(part);
    }
  });
  flush();
  return out;
}

/**
 * How alike two texts are, 0 to 1: the Dice coefficient of their search-token sets (`segment`, so
 * CJK is compared by word and stopwords do not count).
 */
export function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const token of small) if (large.has(token)) shared += 1;
  return (2 * shared) / (a.size + b.size);
}

/** The token set `similarity` compares. */
export function tokenSet(text: string): Set<string> {
  return new Set(segment(text));
}

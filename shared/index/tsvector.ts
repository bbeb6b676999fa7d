import { isCharacterGram, searchTerms } from './analyze.ts';

/** Postgres keeps positions up to 16383; later tokens share the last position. */
const MAX_POSITION = 16383;

export type Weight = 'A' | 'B' | 'C';

export interface WeightedText {
  text: string | null | undefined;
  weight: Weight;
}

export interface IndexedTokens {
  /** A `tsvector` literal (cast with `::tsvector`): each lexeme with its positions and weight. */
  tsvector: string;
  /** Number of word terms: the document length of the word field for BM25. */
  tokenCount: number;
  /** Number of CJK character unigrams and bigrams: the document length of the gram field. */
  gramCount: number;
}

/**
 * Builds a `tsvector` from application-segmented text, title weighted A, content B, summary C.
 * Positions are kept, so a lexeme's position count is its term frequency. Words and character
 * grams (`searchTerms`) share the positions and are counted apart: each field has its own length.
 *
 * @example buildTsvector([{ text: 'Budget', weight: 'A' }, { text: 'the budget grew', weight: 'B' }])
 * // { tsvector: "'budget':1A,2B 'grew':3B", tokenCount: 3, gramCount: 0 }
 */
export function buildTsvector(parts: WeightedText[]): IndexedTokens {
  // Each lexeme's positions as the literal writes them ("1A,2B"), in order of first occurrence.
  const positions = new Map<string, string>();
  let position = 0;
  let grams = 0;
  for (const part of parts) {
    if (!part.text) continue;
    for (const token of searchTerms(part.text)) {
      position += 1;
      if (isCharacterGram(token)) grams += 1;
      const at = `${Math.min(position, MAX_POSITION)}${part.weight}`;
      const list = positions.get(token);
      positions.set(token, list === undefined ? at : `${list},${at}`);
    }
  }
  let tsvector = '';
  for (const [token, list] of positions) tsvector += `${tsvector ? ' ' : ''}${quoteLexeme(token)}:${list}`;
  return { tsvector, tokenCount: position - grams, gramCount: grams };
}

/**
 * A `tsquery` literal matching any of the query's tokens (OR), for GIN candidate filtering; empty
 * string when the query has no searchable token.
 */
export function buildOrTsquery(tokens: string[]): string {
  return [...new Set(tokens)].map(quoteLexeme).join(' | ');
}

function quoteLexeme(token: string): string {
  if (!token.includes('\\') && !token.includes("'")) return `'${token}'`;
  return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

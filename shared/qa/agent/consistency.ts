import { segment } from '#shared/index/segment.ts';
import type { Contradiction } from './types.ts';

/** A statement with the passage it comes from. */
export interface Statement {
  text: string;
  citation: number;
  documentId: string;
}

const NUMBER = /\d+(?:[.,]\d+)*\s*(?:%|万|亿|千|百|million|billion|thousand|k\b)?/gi;
/** Statements sharing this many content words talk about the same thing. */
const MIN_SHARED_WORDS = 2;

/**
 * Deterministic consistency check (offline stand-in for the model's, docs/spec.md#contradictions):
 * two statements from different documents that share at least two content words but state different
 * numbers (amounts, dates, percentages) with none in common contradict each other.
 *
 * @example findNumericContradictions([{ text: '预算为500万元。', citation: 1, documentId: 'a' }, { text: '预算为300万元。', citation: 2, documentId: 'b' }])
 */
export function findNumericContradictions(statements: Statement[]): Contradiction[] {
  const facts = statements.map((s) => ({
    ...s,
    numbers: new Set([...s.text.matchAll(NUMBER)].map((m) => m[0].replace(/[\s,]/g, '').toLowerCase())),
    words: new Set(
      segment(s.text.replace(NUMBER, ' ')).filter((w) => [...w].length >= 2 || /[a-z]{3,}/.test(w)),
    ),
  }));
  const found: Contradiction[] = [];
  for (const [i, a] of facts.entries()) {
    for (const b of facts.slice(i + 1)) {
      if (a.documentId === b.documentId || a.numbers.size === 0 || b.numbers.size === 0) continue;
      const shared = [...a.words].filter((w) => b.words.has(w));
      if (shared.length < MIN_SHARED_WORDS) continue;
      if ([...a.numbers].some((n) => b.numbers.has(n))) continue;
      found.push({
        first: a.text,
        second: b.text,
        citations: [a.citation, b.citation],
        reason: `both are about ${shared.slice(0, 4).join(', ')} but state ${[...a.numbers].join('/')} vs ${[...b.numbers].join('/')}`,
      });
    }
  }
  return found;
}

import { contentWords, stem, words } from './question.ts';
import type { Table } from './table.ts';

/**
 * The rows that best match a question when no plan fits it: scored by how many of the question's
 * content words (stemmed) their cells hold, ties kept in table order. Empty when no row holds one.
 *
 * @example bestRows('what city has the wolf?', table, 3) // [4] (the row whose Name is "The Wolf 104.1")
 */
export function bestRows(question: string, table: Table, limit: number): number[] {
  const wanted = new Set(contentWords(question).map(stem));
  if (wanted.size === 0) return [];
  const scored: { r: number; score: number }[] = [];
  table.rows.forEach((row, r) => {
    const held = new Set<string>();
    for (const cell of row.cells) for (const w of words(cell)) if (wanted.has(stem(w))) held.add(stem(w));
    if (held.size > 0) scored.push({ r, score: held.size });
  });
  return scored
    .sort((a, b) => b.score - a.score || a.r - b.r)
    .slice(0, limit)
    .map((s) => s.r);
}

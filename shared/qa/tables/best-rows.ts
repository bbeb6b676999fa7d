import { contentWords, rowsByStem, stem } from './question.ts';
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
  const stems = rowsByStem(table);
  const held = new Map<number, number>();
  for (const s of wanted) for (const r of stems.get(s) ?? []) held.set(r, (held.get(r) ?? 0) + 1);
  return [...held]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, limit)
    .map(([r]) => r);
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rewrite, Turn } from '#shared/qa/conversation/turns.ts';
import { quantile } from './metrics.ts';

/** One dialogue of a rewrite set: two earlier utterances, the current one, a person's standalone version. */
export interface RewriteDialogue {
  id: string;
  history: [string, string];
  utterance: string;
  rewrite: string;
}

/** Reads `dialogues.jsonl` of a rewrite set (`_id`, `history` of two strings, `utterance`, `rewrite`). */
export function loadRewriteSet(dir: string): RewriteDialogue[] {
  const path = join(dir, 'dialogues.jsonl');
  if (!existsSync(path)) throw new Error(`${path} not found`);
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (!line.trim()) return [];
      const where = `${path}:${i + 1}`;
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line);
      } catch (error) {
        throw new Error(`${where}: not JSON (${(error as Error).message})`);
      }
      const { history, utterance, rewrite } = row;
      if (
        !Array.isArray(history) ||
        history.length !== 2 ||
        !history.every((h) => typeof h === 'string') ||
        typeof utterance !== 'string' ||
        typeof rewrite !== 'string'
      )
        throw new Error(`${where}: needs history (two strings), utterance and rewrite`);
      return [{ id: String(row._id ?? i), history: history as [string, string], utterance, rewrite }];
    });
}

/** Characters of `text` beyond those of `base`, as a multiset. */
function added(text: string, base: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  for (const ch of base) if (counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) - 1);
  return counts;
}

export interface RewriteScore {
  dialogues: number;
  precision: number;
  recall: number;
  f1: number;
  /** Dialogues the rewriter changed. */
  changed: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * Scores a rewriter by the characters it adds to the utterance (the set's README): precision =
 * added characters the person's rewrite also adds, recall = characters the person added that it
 * adds too, as multisets per dialogue, summed over dialogues. The history becomes one earlier turn
 * (first utterance the question, second the answer); each call is timed.
 *
 * @example scoreRewrites(dialogues, (q, turns) => resolveFollowUp(q, turns)).f1
 */
export function scoreRewrites(
  dialogues: readonly RewriteDialogue[],
  rewriter: (question: string, turns: Turn[]) => Rewrite,
): RewriteScore {
  let overlap = 0;
  let ours = 0;
  let theirs = 0;
  let changed = 0;
  const times: number[] = [];
  for (const d of dialogues) {
    const turns = [{ question: d.history[0], answer: d.history[1] }];
    const began = performance.now();
    const { standalone_question: out } = rewriter(d.utterance, turns);
    times.push(performance.now() - began);
    if (out !== d.utterance) changed += 1;
    const mine = added(out, d.utterance);
    const gold = added(d.rewrite, d.utterance);
    for (const [ch, n] of mine) {
      if (n <= 0) continue;
      ours += n;
      overlap += Math.min(n, Math.max(0, gold.get(ch) ?? 0));
    }
    for (const n of gold.values()) if (n > 0) theirs += n;
  }
  const precision = ours > 0 ? overlap / ours : 0;
  const recall = theirs > 0 ? overlap / theirs : 0;
  return {
    dialogues: dialogues.length,
    precision,
    recall,
    f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
    changed,
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ask } from '#shared/qa/ask.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import type { QaResponse } from '#shared/qa/response.ts';
import type { BeirSet } from './beir.ts';
import { quantile } from './metrics.ts';
import type { IngestedSet } from './run.ts';

/** Characters after the leading notice within which the gold answer counts as stated early. */
export const EARLY_CHARS = 200;

/** A factoid set: a BEIR-like corpus and queries that carry their gold `answers` (no qrels). */
export interface AnswerSet extends BeirSet {
  answers: Map<string, string[]>;
}

/** One question's outcome. */
export interface AnswerOutcome {
  id: string;
  question: string;
  answered: boolean;
  early: boolean;
  chars: number;
  mode: string;
  confidence: string;
  answer: string;
}

export interface AnswerScore {
  set: string;
  questions: number;
  /** Share whose answer contains a gold string (spaces and case ignored). */
  answered: number;
  /** Share whose gold string starts within `EARLY_CHARS` after the leading notice. */
  early: number;
  medianChars: number;
  /** Median length of the answer after its leading notice. */
  medianBodyChars: number;
  p95Ms: number;
  outcomes: AnswerOutcome[];
}

/** Whether a folder is an answers set: its queries carry `answers` and it has no qrels. */
export function isAnswerSet(dir: string): boolean {
  return existsSync(join(dir, 'queries.jsonl')) && !existsSync(join(dir, 'qrels', 'test.tsv'));
}

/**
 * Reads an answers set (`corpus.jsonl`, `queries.jsonl` with `answers`: gold strings). Throws naming
 * the file and line of anything malformed.
 *
 * @example loadAnswerSet('../shared/eval/answers-en').queries.length // 50
 */
export function loadAnswerSet(
  dir: string,
  name = dir.split(/[\\/]/).filter(Boolean).at(-1) ?? dir,
): AnswerSet {
  const lines = (file: string) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .map((line, i) => ({ line, where: `${join(dir, file)}:${i + 1}` }))
      .filter(({ line }) => line.trim())
      .map(({ line, where }) => {
        try {
          return { value: JSON.parse(line) as Record<string, unknown>, where };
        } catch (error) {
          throw new Error(`${where}: not JSON (${(error as Error).message})`);
        }
      });
  const text = (value: unknown, field: string, where: string) => {
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') throw new Error(`${where}: "${field}" must be a string`);
    return value;
  };
  const documents = lines('corpus.jsonl').map(({ value, where }) => ({
    id: text(value._id, '_id', where),
    title: typeof value.title === 'string' ? value.title : '',
    text: text(value.text, 'text', where),
  }));
  const answers = new Map<string, string[]>();
  const queries = lines('queries.jsonl').map(({ value, where }) => {
    const id = text(value._id, '_id', where);
    if (!Array.isArray(value.answers) || value.answers.length === 0)
      throw new Error(`${where}: "answers" must be a non-empty list of strings`);
    answers.set(
      id,
      value.answers.flat().map((a) => text(a, 'answers[]', where)),
    );
    return { id, text: text(value.text, 'text', where) };
  });
  return { name, documents, queries, qrels: new Map(), answers };
}

const squash = (s: string) => s.replace(/\s+/g, '').toLowerCase();

/**
 * The answer without its leading notice: the first paragraphs that cite nothing (no `[n]` marker),
 * such as the offline label, are dropped.
 */
export function answerBody(answer: string): string {
  const blocks = answer.split(/\n[ \t]*\n/);
  let i = 0;
  while (i < blocks.length - 1 && !/\[\d+\]/.test(blocks[i] ?? '')) i += 1;
  return blocks.slice(i).join('\n\n');
}

/**
 * Scores one answer: answered when a gold string occurs in it (spaces and case ignored), early when
 * it occurs within the first `EARLY_CHARS` characters of `answerBody`.
 */
export function scoreAnswer(answer: string, gold: string[]): { answered: boolean; early: boolean } {
  const whole = squash(answer);
  const head = squash([...answerBody(answer)].slice(0, EARLY_CHARS).join(''));
  const golds = gold.map(squash).filter(Boolean);
  return {
    answered: golds.some((g) => whole.includes(g)),
    early: golds.some((g) => head.includes(g)),
  };
}

/**
 * Asks every question of the set (mode `auto`, through `ask` as the API does) over the ingested
 * corpus and scores the answers (`scoreAnswer`).
 */
export async function scoreAnswers(
  set: AnswerSet,
  ingested: IngestedSet,
  progress: (done: number, total: number, phase: string) => void = () => {},
): Promise<AnswerScore> {
  const outcomes: AnswerOutcome[] = [];
  const times: number[] = [];
  for (const [i, query] of set.queries.entries()) {
    const began = performance.now();
    let response: QaResponse | undefined;
    for await (const event of ask(ingested.rt.qa, askRequestSchema.parse({ question: query.text }))) {
      if (event.type === 'done') response = event.data.response;
      if (event.type === 'error') throw new Error(`${query.id}: ${event.data.message}`);
    }
    times.push(performance.now() - began);
    const answer = response?.answer ?? '';
    const score = scoreAnswer(answer, set.answers.get(query.id) ?? []);
    outcomes.push({
      id: query.id,
      question: query.text,
      ...score,
      chars: [...answer].length,
      mode: response?.mode ?? '',
      confidence: response?.confidence ?? '',
      answer,
    });
    progress(i + 1, set.queries.length, 'answers');
  }
  const share = (f: (o: AnswerOutcome) => boolean) =>
    outcomes.length ? outcomes.filter(f).length / outcomes.length : 0;
  return {
    set: set.name,
    questions: outcomes.length,
    answered: share((o) => o.answered),
    early: share((o) => o.early),
    medianChars: quantile(
      outcomes.map((o) => o.chars),
      0.5,
    ),
    medianBodyChars: quantile(
      outcomes.map((o) => [...answerBody(o.answer)].length),
      0.5,
    ),
    p95Ms: quantile(times, 0.95),
    outcomes,
  };
}

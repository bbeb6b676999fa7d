import type { SearchHit } from '#shared/search/types.ts';
import { textDeltas } from '../deltas.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import { finishAnswer } from '../finish.ts';
import type { AskRequest } from '../request.ts';
import type { TraceRecorder } from '../trace.ts';
import { tableAnswer } from './answer.ts';
import { bestRows } from './best-rows.ts';
import { planForm } from './form.ts';
import { isTableHit, type LoadedTable, loadTable, passageHits } from './load.ts';
import { planTable, type TablePlan } from './plan.ts';
import { isStopWord, readQuestion } from './question.ts';
import type { Table } from './table.ts';

/** Tables (the best hits' own) tried before giving up on a table answer. */
const MAX_TABLES = 3;
/** Rows quoted when no plan fits. */
const MAX_BEST_ROWS = 5;

/**
 * Cited rows' passages with a relevance: their own when search returned them, else that of the hit
 * that led to their table (a row found by the planner was not ranked by search; reading it as 0
 * would say it is unrelated).
 */
function withRelevance(passages: SearchHit[], hits: readonly SearchHit[], tableHit: SearchHit): SearchHit[] {
  const ranked = new Map(hits.map((h) => [h.nodeId, h.relevance]));
  return passages.map((p) => {
    const relevance = ranked.get(p.nodeId) ?? tableHit.relevance;
    return relevance === undefined ? p : { ...p, relevance };
  });
}

/**
 * Whether the question names something of the table by a word, not only by a number or a generic
 * word: a cell phrase or a column name with a letter in it, the column named by more than a word
 * like "total" (`isStopWord`). "2022年春运什么时候开始？" shares only "2022" with a sheet of duck counts
 * by year, "What is the total on the retail receipt?" only "total" with an inventory's "Total
 * Value" column; neither is a sign the question is about that sheet.
 */
function namesByWord(question: string, table: Table): boolean {
  const facts = readQuestion(question, table);
  const wordy = (w: string) => /\p{L}/u.test(w);
  return (
    facts.conditions.some((c) => c.phrase.some(wordy)) ||
    [...facts.headerAt].some((i) => {
      const word = facts.words[i] ?? '';
      return wordy(word) && !isStopWord(word);
    })
  );
}

/**
 * The offline table answer (docs/tables.md): when the best passages are rows of a table, the
 * planner (`planTable`) works out the answer over the whole table; the answer leads with the result,
 * then how it was obtained and the rows used, each cited. When no plan fits but the best passage
 * is a table's, the answer says so and quotes the rows that best match the question, whole. Yields
 * nothing and returns false otherwise, so the caller answers as before.
 */
export async function* offlineTableAnswer(
  deps: QaDeps,
  request: AskRequest,
  hits: SearchHit[],
  trace: TraceRecorder,
): AsyncGenerator<QaEvent, boolean> {
  const seen = new Set<string>();
  const candidates: SearchHit[] = [];
  for (const hit of hits) {
    if (!isTableHit(hit)) continue;
    const key = hit.nodeType === 'table' ? hit.nodeId : `${hit.documentId}\n${hit.sectionPath.join('\n')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    candidates.push(hit);
    if (candidates.length >= MAX_TABLES) break;
  }
  let unplanned: { hit: SearchHit; loaded: LoadedTable } | undefined;
  for (const hit of candidates) {
    const loaded = await loadTable(deps.db, hit);
    if (!loaded) continue;
    // A table below the best passage answers only a question that names it by a word.
    if (hit !== hits[0] && !namesByWord(request.question, loaded.table)) continue;
    const plan = planForm(request.question, loaded.table) ?? planTable(request.question, loaded.table);
    if (plan?.result.some(Boolean)) {
      yield* answerFromTable(deps, request, { hits, hit, loaded, plan, trace });
      return true;
    }
    // Only the best passage's own table answers with its rows alone: a table lower in the ranking
    // is no sign that the question is about a table.
    if (hit === hits[0]) unplanned = { hit, loaded };
  }
  if (!unplanned) return false;
  const rows = bestRows(request.question, unplanned.loaded.table, MAX_BEST_ROWS);
  if (rows.length === 0) return false;
  const plan: TablePlan = { shape: 'rows', result: [], how: 'no shape fits', rows };
  yield* answerFromTable(deps, request, { hits, ...unplanned, plan, trace });
  return true;
}

/** Streams and finishes the answer of a plan over one loaded table, its rows' passages cited. */
async function* answerFromTable(
  deps: QaDeps,
  request: AskRequest,
  at: { hits: SearchHit[]; hit: SearchHit; loaded: LoadedTable; plan: TablePlan; trace: TraceRecorder },
): AsyncGenerator<QaEvent> {
  const { hits, hit, loaded, plan, trace } = at;
  const cited = [...new Set(plan.rows.map((r) => loaded.table.rows[r]?.passage ?? 0))];
  const passages = withRelevance(
    await passageHits(
      deps.db,
      deps.access,
      cited.map((p) => loaded.passageIds[p] ?? hit.nodeId),
    ),
    hits,
    hit,
  );
  const { text: answer, table } = tableAnswer(
    request.question,
    plan,
    loaded.table,
    (p) => cited.indexOf(p) + 1,
  );
  yield trace.observation(`Table "${loaded.table.title}": ${plan.shape}; ${plan.how}`);
  yield { type: 'progress', data: { stage: 'answer', message: 'Writing the answer' } };
  yield* textDeltas(answer);
  yield* finishAnswer(deps, request, {
    answer,
    confidence: plan.shape === 'rows' ? 'low' : 'medium',
    passages,
    mode: 'direct',
    trace,
    reasoningSteps: 1,
    table,
  });
}

import type { SearchHit } from '#shared/search/types.ts';
import { textDeltas } from '../deltas.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import { finishAnswer } from '../finish.ts';
import type { AskRequest } from '../request.ts';
import type { TraceRecorder } from '../trace.ts';
import { tableAnswerText } from './answer.ts';
import { isTableHit, loadTable, passageHits } from './load.ts';
import { planTable } from './plan.ts';

/** Tables (the best hits' own) tried before giving up on a table answer. */
const MAX_TABLES = 3;

/**
 * The offline table answer (docs/tables.md): when the best passages are rows of a table, the
 * planner (`planTable`) works out the answer over the whole table; the answer leads with the result,
 * then how it was obtained and the rows used, each cited. Yields nothing and returns false when no
 * retrieved table answers the question, so the caller answers as before.
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
  for (const hit of candidates) {
    const loaded = await loadTable(deps.db, hit);
    if (!loaded) continue;
    const plan = planTable(request.question, loaded.table);
    if (!plan || plan.result.every((r) => !r)) continue;
    const cited = [...new Set(plan.rows.map((r) => loaded.table.rows[r]?.passage ?? 0))];
    const passages = await passageHits(
      deps.db,
      deps.access,
      cited.map((p) => loaded.passageIds[p] ?? hit.nodeId),
    );
    const answer = tableAnswerText(request.question, plan, loaded.table, (p) => cited.indexOf(p) + 1);
    yield trace.observation(`Table "${loaded.table.title}": ${plan.shape}; ${plan.how}`);
    yield { type: 'progress', data: { stage: 'answer', message: 'Writing the answer' } };
    yield* textDeltas(answer);
    yield* finishAnswer(deps, request, {
      answer,
      confidence: 'medium',
      passages,
      mode: 'direct',
      trace,
      reasoningSteps: 1,
    });
    return true;
  }
  return false;
}

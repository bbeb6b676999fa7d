import { hasCjk } from '#shared/text/segment.ts';
import type { TablePlan } from './plan.ts';
import { rowText, type Table } from './table.ts';

/** Rows quoted under an answer at most. */
const MAX_QUOTED_ROWS = 8;

/**
 * The offline table answer: a label, the result first (with the citations of the rows it came
 * from), how it was obtained, and the rows used, each read whole with its header names and cited.
 * `citationOf` gives a row's passage its `[n]`.
 *
 * @example tableAnswerText('…', plan, table, () => 1) // 'Offline table answer (…):\n\n13 [1]\n\nHow: …\n\nRows used (Scores):\n- Team: Toronto Maple Leafs · Stanley Cups: 13 [1]'
 */
export function tableAnswerText(
  question: string,
  plan: TablePlan,
  table: Table,
  citationOf: (passage: number) => number,
): string {
  const zh = hasCjk(question);
  const label = zh
    ? `离线表格回答（未使用语言模型，由表格“${table.title}”计算得出）：`
    : `Offline table answer (no language model; worked out from the table "${table.title}"):`;
  const used = plan.rows.slice(0, MAX_QUOTED_ROWS);
  const markers = [...new Set(used.map((r) => table.rows[r]?.passage ?? 0))].map((p) => `[${citationOf(p)}]`);
  const quoted = used.flatMap((r) => {
    const row = table.rows[r];
    return row ? [`- ${rowText(table, row)} [${citationOf(row.passage)}]`] : [];
  });
  return [
    label,
    '',
    `${plan.result.join('; ')} ${markers.join('')}`.trim(),
    '',
    `${zh ? '方法' : 'How'}: ${plan.how}`,
    '',
    `${zh ? '所用的行' : 'Rows used'} (${table.title}):`,
    ...quoted,
  ].join('\n');
}

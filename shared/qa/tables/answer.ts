import { hasCjk } from '#shared/text/segment.ts';
import { formFields, formRowText } from './form.ts';
import type { TablePlan } from './plan.ts';
import { rowText, type Table } from './table.ts';

/**
 * The answer's leading notice. The table's name stands in 《》 or single quotes: double quotation
 * marks would claim it as text quoted from a passage (shared/qa/citations.ts), and a sheet's name
 * is in none.
 */
export function tableNotice(zh: boolean, title: string): string {
  return zh
    ? `离线表格回答（未使用语言模型，由表格《${title}》计算得出）：`
    : `Offline table answer (no language model; worked out from the table ‘${title}’):`;
}

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
  const label = tableNotice(zh, table.title);
  const used = plan.rows.slice(0, MAX_QUOTED_ROWS);
  const markers = [...new Set(used.map((r) => table.rows[r]?.passage ?? 0))].map((p) => `[${citationOf(p)}]`);
  const fields = formFields(table);
  const quoted = used.flatMap((r) => {
    const row = table.rows[r];
    const text = row && (fields ? formRowText(fields, row, table) : rowText(table, row));
    return row && text ? [`- ${text} [${citationOf(row.passage)}]`] : [];
  });
  const lead =
    plan.shape === 'rows'
      ? [zh ? NO_FIT_ZH : NO_FIT_EN]
      : [`${plan.result.join('; ')} ${markers.join('')}`.trim(), '', `${zh ? '方法' : 'How'}: ${plan.how}`];
  return [label, '', ...lead, '', `${zh ? '所用的行' : 'Rows used'} (${table.title}):`, ...quoted].join('\n');
}

const NO_FIT_EN =
  'No calculation over this table fits the question (a lookup, count, highest or lowest, first or last, sum, average or difference); the rows that match it best are quoted whole.';
const NO_FIT_ZH =
  '没有适合这个问题的表格计算（查找、计数、最高或最低、第一或最后、求和、平均或差值）；下面整行引用与问题最相符的行。';

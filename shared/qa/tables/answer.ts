import { offlineTableNotice } from '#shared/text/offline-notice.ts';
import { hasCjk } from '#shared/text/segment.ts';
import type { QaTable } from '../response.ts';
import { formFields, formRowText } from './form.ts';
import type { TablePlan } from './plan.ts';
import { rowText, type Table } from './table.ts';

/** Rows quoted under an answer at most. */
const MAX_QUOTED_ROWS = 8;

/**
 * An offline table answer: its text, and the rows it used as a table (`QaResponse.table`); a form's
 * label/value pairs (`formFields`) have no header to show, and stay text.
 */
export interface TableAnswer {
  text: string;
  table?: QaTable;
}

/**
 * The offline table answer: a label, the result first (with the citations of the rows it came
 * from), how it was obtained, and the rows used, each read whole with its header names and cited;
 * the same rows as a table (the columns with a value in one of them), for the page.
 * `citationOf` gives a row's passage its `[n]`.
 *
 * @example tableAnswer('…', plan, table, () => 1).text // 'Offline table answer (…):\n\n13 [1]\n\nHow: …\n\nRows used (Scores):\n- Team: Toronto Maple Leafs · Stanley Cups: 13 [1]'
 */
export function tableAnswer(
  question: string,
  plan: TablePlan,
  table: Table,
  citationOf: (passage: number) => number,
): TableAnswer {
  const zh = hasCjk(question);
  const label = offlineTableNotice(zh, table.title);
  const used = plan.rows.flatMap((r) => table.rows[r] ?? []).slice(0, MAX_QUOTED_ROWS);
  const markers = [...new Set(used.map((row) => row.passage))].map((p) => `[${citationOf(p)}]`);
  const fields = formFields(table);
  const quoted = used.flatMap((row) => {
    const text = fields ? formRowText(fields, row, table) : rowText(table, row);
    return text ? [`- ${text} [${citationOf(row.passage)}]`] : [];
  });
  const lead =
    plan.shape === 'rows'
      ? [zh ? NO_FIT_ZH : NO_FIT_EN]
      : [`${plan.result.join('; ')} ${markers.join('')}`.trim(), '', `${zh ? '方法' : 'How'}: ${plan.how}`];
  const head = [label, '', ...lead, '', ''].join('\n');
  const rowsText = [`${zh ? '所用的行' : 'Rows used'} (${table.title}):`, ...quoted].join('\n');
  const shown = table.columns.flatMap((_, c) => (used.some((row) => row.cells[c]) ? [c] : []));
  if (fields) return { text: head + rowsText };
  return {
    text: head + rowsText,
    table: {
      title: table.title,
      columns: shown.map((c) => table.columns[c] ?? ''),
      rows: used.map((row) => ({
        citation: citationOf(row.passage),
        number: row.number,
        cells: shown.map((c) => row.cells[c] ?? ''),
      })),
      text_at: head.length,
    },
  };
}

const NO_FIT_EN =
  'No calculation over this table fits the question (a lookup, count, highest or lowest, first or last, sum, average or difference); the rows that match it best are quoted whole.';
const NO_FIT_ZH =
  '没有适合这个问题的表格计算（查找、计数、最高或最低、第一或最后、求和、平均或差值）；下面整行引用与问题最相符的行。';

import { pipeTable } from '../pipe-table.ts';
import type { ParagraphNode, TableNode, TreeNode } from '../types.ts';

/** What a chart shows, whatever file it came from: its title, category labels and series. */
export interface ChartData {
  title: string | undefined;
  /** Category (or x) labels, one per data point; may be shorter than a series. */
  categories: string[];
  series: { name: string; values: string[] }[];
}

/**
 * A chart as leaves of the tree: its title as a paragraph (`metadata.kind: 'chart'`) and its data
 * as a table of categories × series (`metadata.kind: 'chart'`, `title`), so that a chart's numbers
 * are searched and quoted like any table's. A chart with no data gives its title only; one with
 * neither gives nothing.
 *
 * @example chartLeaves({ title: 'Sales', categories: ['Q1'], series: [{ name: 'EU', values: ['4'] }] }, {})
 * // paragraph "Sales", table "|  | EU |\n| --- | --- |\n| Q1 | 4 |"
 */
export function chartLeaves(chart: ChartData, metadata: Record<string, unknown>): TreeNode[] {
  const out: TreeNode[] = [];
  const title = chart.title?.trim();
  if (title) {
    const caption: ParagraphNode = {
      type: 'paragraph',
      text: title,
      metadata: { ...metadata, kind: 'chart' },
    };
    out.push(caption);
  }
  const points = Math.max(chart.categories.length, ...chart.series.map((s) => s.values.length), 0);
  if (points === 0 || chart.series.length === 0) return out;
  const rows: string[][] = [['', ...chart.series.map((s, i) => s.name || `Series ${i + 1}`)]];
  for (let i = 0; i < points; i++) {
    rows.push([chart.categories[i] ?? String(i + 1), ...chart.series.map((s) => s.values[i] ?? '')]);
  }
  const table: TableNode = {
    type: 'table',
    text: pipeTable(rows),
    rows,
    metadata: title ? { ...metadata, kind: 'chart', title } : { ...metadata, kind: 'chart' },
  };
  out.push(table);
  return out;
}

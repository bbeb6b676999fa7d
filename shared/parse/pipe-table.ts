function escapeCell(cell: string): string {
  if (!/[\\|\n]/.test(cell)) return cell;
  return cell
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

/**
 * A Markdown pipe table of the rows, the first row as its header: every row padded to the widest,
 * pipes and backslashes in cells escaped, line breaks in cells made spaces. Empty for no rows.
 *
 * @example pipeTable([['Region', 'Q1'], ['North', '10']]) // '| Region | Q1 |\n| --- | --- |\n| North | 10 |'
 */
export function pipeTable(rows: readonly (readonly string[])[]): string {
  const [header, ...body] = rows;
  if (!header) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: readonly string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? '')).join(' | ')} |`;
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

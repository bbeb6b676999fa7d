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
  const header = rows[0];
  if (!header) return '';
  let width = 0;
  for (const row of rows) width = Math.max(width, row.length);
  // Plain loops: building each line with Array.from and join cost more than the rest of a table.
  const line = (cells: readonly string[]) => {
    let inner = '';
    for (let i = 0; i < width; i++) inner += `${i > 0 ? ' | ' : ''}${escapeCell(cells[i] ?? '')}`;
    return `| ${inner} |`;
  };
  let table = `${line(header)}\n|${' --- |'.repeat(width)}`;
  for (let r = 1; r < rows.length; r++) table += `\n${line(rows[r] ?? [])}`;
  return table;
}

/**
 * The rows of a Markdown pipe table (`pipeTable`'s output, or any pipe table): the header row
 * first, the separator row left out, escaped pipes read back.
 *
 * @example readPipeRows('| Region | Q1 |\n| --- | --- |\n| North | 10 |') // [['Region', 'Q1'], ['North', '10']]
 */
export function readPipeRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.trim().startsWith('|') && !/^\s*\|?\s*:?-{2,}/.test(line))
    .map((line) =>
      line
        .trim()
        .replace(/^\||(?<!\\)\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.replaceAll('\\|', '|').replaceAll('\\\\', '\\').trim()),
    );
}

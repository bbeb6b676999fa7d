/**
 * A formula cell whose cached result is an error (`t="e"`) or a boolean (`t="b"`). exceljs's
 * streaming reader turns every cached formula result into `parseFloat(text)`, so `#DIV/0!` becomes
 * NaN and TRUE becomes 1; read without its formula, the same cell gives `{error}` or a boolean.
 */
const TYPED_CELL = /<c\s[^>/]*\bt=["'][eb]["'][^>/]*>([\s\S]*?)<\/c>/g;
const FORMULA = /<f\b[^>]*\/>|<f\b[^>]*>[\s\S]*?<\/f>/;

function dropFormula(cell: string, body: string): string {
  return body.includes('<v') ? cell.replace(FORMULA, '') : cell;
}

/** Where a chunk may be cut without splitting a cell that the rewrite has to see whole. */
function safeCut(text: string): number {
  let cut = text.length;
  const lastClose = text.lastIndexOf('</c>');
  const lastCell = text.lastIndexOf('<c');
  if (lastCell > lastClose) cut = lastCell;
  const lastTag = text.lastIndexOf('<');
  if (lastTag > text.lastIndexOf('>')) cut = Math.min(cut, lastTag);
  return cut;
}

/**
 * A worksheet's XML text with the formula left out of cells whose cached result is an error or a
 * boolean, so the reader shows `#DIV/0!` and TRUE / FALSE instead of NaN and 1 / 0. The formula text
 * is only ever shown when no result is cached, which such a cell has. Chunks are re-cut at cell
 * boundaries; nothing else changes.
 *
 * @example for await (const text of keepTypedResults(sheetXmlStream)) parser.write(text)
 */
export async function* keepTypedResults(source: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  let carry = '';
  for await (const chunk of source) {
    const text = carry + chunk.toString();
    const cut = safeCut(text);
    carry = text.slice(cut);
    if (cut > 0) yield text.slice(0, cut).replace(TYPED_CELL, dropFormula);
  }
  if (carry) yield carry.replace(TYPED_CELL, dropFormula);
}

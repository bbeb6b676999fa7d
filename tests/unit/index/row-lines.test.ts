import { describe, expect, it } from 'vitest';
import { flattenTree } from '#shared/index/flatten.ts';
import { rowLine, tableIndexText } from '#shared/index/row-lines.ts';
import { htmlParser } from '#shared/parse/html/parse-html.ts';
import { csvParser } from '#shared/parse/sheets/parse-workbook.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';

const ref = { documentId: '00000000-0000-4000-8000-000000000031', version: 1 };
const LEAFS = 'Team: Toronto Maple Leafs · Stanley Cups: 13';

/** The index text lines of a parsed document's table passages (sheet rows or table nodes). */
function tableLines(doc: ParsedDocument): string[] {
  return flattenTree(doc, ref)
    .filter((row) => row.nodeType === 'table' || row.metadata.kind === 'rows')
    .flatMap((row) => row.indexText.split('\n'));
}

describe('rowLine', () => {
  it('joins a row’s fields on one line after the table’s title', () => {
    expect(rowLine(['Team: Toronto Maple Leafs', 'Stanley Cups: 13'], 'Stanley Cup results')).toBe(
      `Stanley Cup results — ${LEAFS}`,
    );
  });
});

describe('tableIndexText', () => {
  it('reads a table node without rows from its pipe table, empty cells left out', () => {
    const text = '| Team | Stanley Cups | Note |\n| --- | --- | --- |\n| Toronto Maple Leafs | 13 |  |';
    expect(tableIndexText({ type: 'table', text }, 'Stanley Cup results')).toBe(
      `Stanley Cup results — ${LEAFS}`,
    );
  });

  it('leaves prose alone', () => {
    expect(tableIndexText({ type: 'paragraph', text: 'Team: the Leafs won.' }, 'Notes')).toBeUndefined();
  });
});

describe('table rows in the index, whatever the format', () => {
  it('indexes each row of a CSV and of an HTML table as one line with the title and header names', async () => {
    const csv = await csvParser.parse({
      bytes: new TextEncoder().encode('Team,Stanley Cups\nMontreal Canadiens,24\nToronto Maple Leafs,13\n'),
      filename: 'Stanley Cup results.csv',
    });
    const html = await htmlParser.parse({
      bytes: new TextEncoder().encode(
        '<html><body><h2>Stanley Cup results</h2><table><tr><th>Team</th><th>Stanley Cups</th></tr>' +
          '<tr><td>Montreal Canadiens</td><td>24</td></tr><tr><td>Toronto Maple Leafs</td><td>13</td></tr></table></body></html>',
      ),
      filename: 'cups.html',
    });
    const sheetTitle = csv.children[0]?.type === 'section' ? csv.children[0].title : '';
    expect(tableLines(csv)).toContain(`${sheetTitle} — ${LEAFS}`);
    expect(tableLines(html)).toContain(`Stanley Cup results — ${LEAFS}`);
  });
});

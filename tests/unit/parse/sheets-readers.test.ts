import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import CFB from 'cfb';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { openOle } from '#shared/parse/ole.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { readCsv, readsAsDelimited } from '#shared/parse/sheets/read-csv.ts';
import { readXls } from '#shared/parse/sheets/read-xls.ts';
import { XLSX } from '#shared/parse/sheets/sheetjs.ts';
import { sheetjsWorkbook } from '#shared/parse/sheets/sheetjs-workbook.ts';
import type { ParsedDocument, SectionNode } from '#shared/parse/types.ts';
import type { SheetRow } from '#shared/parse/xlsx/sheet-layout.ts';
import { writeXls, type XlsValue } from '../../helpers/xls-writer.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/legacy');

async function parse(bytes: Uint8Array, filename: string, maxRows?: number): Promise<ParsedDocument> {
  const limits = maxRows === undefined ? undefined : { ...DEFAULT_PARSE_LIMITS, maxRows };
  return parseDocument({ bytes, filename, limits }, detectFileType(bytes, filename));
}

/** Rows as plain data: row numbers, and each cell's column, text and whether it reads as a label. */
function plain(rows: Iterable<SheetRow> | AsyncIterable<SheetRow>) {
  if (!(Symbol.iterator in rows)) throw new Error('these readers give their rows synchronously');
  return [...rows].map((row) => ({
    number: row.number,
    cells: row.cells.map((cell) => [cell.column, cell.text, cell.label]),
  }));
}

/** What SheetJS reads from the same bytes: every sheet's rows, as the tree is built from them. */
function sheetjsRows(bytes: Uint8Array) {
  const book = sheetjsWorkbook(XLSX.read(bytes, { type: 'array', dense: true, cellNF: true }));
  return [...book.sheets].map((sheet) => ({
    name: sheet.name,
    hidden: sheet.hidden,
    rows: plain(sheet.rows),
  }));
}

function sections(doc: ParsedDocument) {
  return (doc.children as SectionNode[]).map((section) => ({
    title: section.title,
    hidden: section.metadata?.hidden === true,
    text: section.children.map((child) => ('text' in child ? child.text : '')),
  }));
}

/** A deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the .xls record reader', () => {
  const long = 'Lisbon office budget line '.repeat(12);
  const budget: XlsValue[][] = [
    ['Item', 'Amount', 'Due', 'Share', 'Approved', 'Check', 'Formula'],
    [
      'Servers',
      500000,
      { date: 46112 },
      { percent: 0.25 },
      true,
      { error: 0x2a },
      { formula: 'cached text' },
    ],
    ['Training', 42000.5, { date: 46203.5 }, { percent: 0.125 }, false, { error: 0x07 }, { formula: 3.5 }],
    [null, 1, 2, 3, 4.25, 1e20, { formula: true }],
    [`  ${long}上海 ${long}  `, -3, { formula: '' }, { formula: { error: 0x17 } }],
  ];
  for (let i = 0; i < 40; i++) budget.push([`row ${i} ${i % 3 ? long : `李雷 ${long}`}`, i * 1.1, i]);
  // Records cut at 300 bytes: long strings run on in CONTINUE records, some switching width there.
  const xls = writeXls(
    [
      { name: 'Budget', rows: budget },
      {
        name: 'Staff 表',
        hidden: true,
        rows: [
          ['Name:', 'Ana'],
          ['Office:', 'Lisbon'],
        ],
      },
      { name: 'Empty', rows: [] },
    ],
    { maxRecord: 300, properties: { title: 'FY2026 budget', author: 'Ana' } },
  );

  it('reads every kind of cell record as SheetJS reads it, sheet by sheet', async () => {
    const doc = await parse(xls, 'budget.xls');
    expect(doc.title).toBe('FY2026 budget');
    expect(doc.metadata).toMatchObject({ author: 'Ana', sheets: 3 });
    const [first, staff, empty] = sections(doc);
    expect(first?.text[0]).toBe(
      [
        'Item: Servers\nAmount: 500000\nDue: 2026-03-31\nShare: 25%\nApproved: TRUE\nCheck: #N/A\nFormula: cached text',
        'Item: Training\nAmount: 42000.5\nDue: 2026-06-30 12:00:00\nShare: 12.5%\nApproved: FALSE\nCheck: #DIV/0!\nFormula: 3.5',
        'Amount: 1\nDue: 2\nShare: 3\nApproved: 4.25\nCheck: 100000000000000000000\nFormula: TRUE',
      ].join('\n\n'),
    );
    // The long cell trimmed, on one line, whole across its continuations; the empty formula left out.
    expect(first?.text[1]).toBe(`Item: ${long}上海 ${long.trimEnd()}\nAmount: -3\nShare: #REF!`);
    expect(first?.text.join('\n')).toContain(`Item: row 1 ${long.trimEnd()}\nAmount: 1.1\nDue: 1`);
    expect(first?.text.join('\n')).toContain(`Item: row 39 李雷 ${long.trimEnd()}`);
    expect(staff).toEqual({ title: 'Staff 表', hidden: true, text: ['Name: Ana\n\nOffice: Lisbon'] });
    expect(empty).toEqual({ title: 'Empty', hidden: false, text: [] });
  });

  it("reads the same rows as SheetJS from the same workbook, and from LibreOffice's", () => {
    const fixture = new Uint8Array(readFileSync(join(FIXTURES, 'budget.xls')));
    for (const bytes of [xls, fixture]) {
      const stream = openOle(bytes, 'budget.xls').stream('Workbook') as Uint8Array;
      // Each sheet's rows are read before the next sheet is asked for (they stream from the file).
      const ours = [];
      for (const sheet of readXls(Buffer.from(stream)).sheets) {
        ours.push({ name: sheet.name, hidden: sheet.hidden, rows: plain(sheet.rows) });
      }
      expect(ours).toEqual(sheetjsRows(bytes));
    }
  });

  it('reads a sheet whose rows are stored out of order (held whole, not streamed) as SheetJS does', async () => {
    const rows: XlsValue[][] = [['Id', 'Name'], [1, 'Ana'], [], [3, 'Lee']];
    const reversed = writeXls([{ name: 'R', rows }], { reverseRows: true });
    const stream = openOle(reversed, 'r.xls').stream('Workbook') as Uint8Array;
    const ours = [];
    for (const sheet of readXls(Buffer.from(stream)).sheets)
      ours.push({ name: sheet.name, hidden: sheet.hidden, rows: plain(sheet.rows) });
    expect(ours).toEqual(sheetjsRows(reversed));
    expect(sections(await parse(reversed, 'r.xls'))[0]?.text).toEqual([
      'Id: 1\nName: Ana\n\nId: 3\nName: Lee',
    ]);
  });

  it('reads dates in the 1904 date system', async () => {
    const bytes = writeXls(
      [
        {
          name: 'D',
          rows: [
            ['Day', 'When'],
            ['a', { date: 40000 }],
          ],
        },
      ],
      { date1904: true },
    );
    expect(sections(await parse(bytes, 'mac.xls'))[0]?.text).toEqual(['Day: a\nWhen: 2013-07-07']);
  });

  it('fails an encrypted workbook as password-protected, a truncated one as damaged', async () => {
    const encrypted = writeXls([{ name: 'D', rows: [['a']] }], { encrypted: true });
    await expect(parse(encrypted, 'secret.xls')).rejects.toThrow(
      'secret.xls is password-protected (an encrypted Excel workbook); save it without a password',
    );
    // The LibreOffice fixture with its Workbook stream cut short inside the container.
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'budget.xls')));
    const cut = cutWorkbookStream(bytes);
    await expect(parse(cut, 'cut.xls')).rejects.toThrow(
      /^cut\.xls is damaged: the workbook could not be read \(record 0x[0-9a-f]+ at byte \d+ runs past the end of the Workbook stream\)/,
    );
  });

  it('stops at limits.maxRows, counting the rows of every sheet', async () => {
    const rows: XlsValue[][] = [['Id', 'Name']];
    for (let i = 1; i <= 50; i++) rows.push([i, `n${i}`]);
    const bytes = writeXls([
      { name: 'A', rows },
      { name: 'B', rows },
    ]);
    await expect(parse(bytes, 'rows.xls', 60)).rejects.toThrow(
      'rows.xls has more than 60 rows (limits.maxRows)',
    );
    expect(sections(await parse(bytes, 'rows.xls', 102))).toHaveLength(2);
  });
});

/** The workbook with its Workbook stream's last 40 bytes dropped (the container kept valid). */
function cutWorkbookStream(bytes: Uint8Array): Uint8Array {
  const container = CFB.read(Buffer.from(bytes), { type: 'buffer' });
  const entry = CFB.find(container, 'Workbook');
  if (!entry?.content) throw new Error('no Workbook stream');
  const content = Buffer.from(entry.content as Uint8Array);
  entry.content = content.subarray(0, content.length - 40);
  entry.size = entry.content.length;
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
}

describe('the CSV reader', () => {
  function sheetjsCsvRows(text: string, separator?: string) {
    const book = XLSX.read(text, {
      type: 'string',
      raw: true,
      dense: true,
      ...(separator ? { FS: separator } : {}),
    });
    return plain([...sheetjsWorkbook(book).sheets][0]?.rows ?? []);
  }

  it('reads quotes, separators and line breaks as SheetJS does', () => {
    const cases = [
      'name,amount\nAna,12\n"Lee, Jr.","3""0"\n',
      'a;b;c\r\n1;2;3\r\n\r\n\r\n4;;6',
      'sep=|\nx|y\n1|"two\nlines"|3',
      '"unterminated,a\nb',
      'x\ty\n1\t2\n',
      'a,b,\n,,\n\n"",c\r"d"\r',
      '单位,金额\n上海,"1,200"\n',
    ];
    for (const text of cases) expect(plain(readCsv(text)), text).toEqual(sheetjsCsvRows(text));
    expect(plain(readCsv('a,b\tc\n', '\t'))).toEqual(sheetjsCsvRows('a,b\tc\n', '\t'));
  });

  it('matches SheetJS on 2,000 random texts of separators, quotes and line breaks', () => {
    const next = random(16);
    const alphabet = ['a', 'b', ' ', ',', ',', ';', '\t', '|', '"', '"', '\n', '\r', '\r\n', '李', '1', '='];
    for (let n = 0; n < 2_000; n++) {
      const length = Math.floor(next() * 40);
      let text = n % 10 === 0 ? 'sep=;\n' : 'x';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      if (!readsAsDelimited(text)) continue;
      expect(plain(readCsv(text)), JSON.stringify(text)).toEqual(sheetjsCsvRows(text));
    }
  });

  it('leaves text SheetJS reads as another format to SheetJS', () => {
    expect(readsAsDelimited('<table><tr><td>1</td></tr></table>')).toBe(false);
    expect(readsAsDelimited('ID;P\nC;Y1;X1;K"a"\nE')).toBe(false);
    expect(readsAsDelimited(' a,b\n')).toBe(false);
    expect(readsAsDelimited('Id,Name\n1,Ana\n')).toBe(true);
    expect(readsAsDelimited('Product,Price\n')).toBe(true);
  });
});

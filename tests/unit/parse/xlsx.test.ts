import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParagraphNode, SectionNode, TreeNode } from '#shared/parse/types.ts';
import { parseXlsx } from '#shared/parse/xlsx/parse-xlsx.ts';
import { zipBytes } from './fixtures.ts';
import { workbookInput } from './xlsx-fixtures.ts';

function section(nodes: TreeNode[], index: number): SectionNode {
  const node = nodes[index];
  if (node?.type !== 'section') throw new Error(`node ${index} is ${node?.type}, not a section`);
  return node;
}

function paragraphs(node: SectionNode): ParagraphNode[] {
  return node.children.filter((child): child is ParagraphNode => child.type === 'paragraph');
}

describe('parseXlsx', () => {
  it('gives each sheet a section with header-named rows, dates, formula results, merged cells, an empty and a hidden Chinese sheet', async () => {
    const input = await workbookInput((workbook) => {
      const sales = workbook.addWorksheet('Sales');
      sales.addRow(['Region', 'Date', 'Units', 'Price', 'Total']);
      sales.addRow(['North', new Date(Date.UTC(2024, 2, 1)), 3, 2.5, { formula: 'C2*D2', result: 7.5 }]);
      sales.addRow(['South', new Date(Date.UTC(2024, 2, 2, 14, 30)), 4, 0.1, { formula: 'C3*D3' }]);
      sales.addRow(['East', null, 5, { error: '#N/A' }, { formula: 'C4*2', result: 10 }]);
      sales.getCell('A6').value = 'Merged';
      sales.mergeCells('A6:B7');
      sales.getCell('C6').value = 1;
      sales.getCell('C7').value = 2;
      workbook.addWorksheet('Empty');
      const summary = workbook.addWorksheet('汇总', { state: 'hidden' });
      summary.addRow(['产品', '', '销量']);
      summary.addRow(['苹果', true, 10, 'extra']);
      summary.addRow([
        { richText: [{ text: 'Bold ' }, { text: 'part' }] },
        { text: 'Link', hyperlink: 'https://example.com' },
      ]);
    });
    const doc = await parseXlsx(input);
    expect(doc.title).toBe('book');
    expect(doc.warnings).toEqual([]);
    expect(doc.images).toEqual([]);
    expect(doc.children).toEqual([
      {
        type: 'section',
        title: 'Sales',
        metadata: { sheet: 'Sales', headerRow: 1, columns: ['Region', 'Date', 'Units', 'Price', 'Total'] },
        children: [
          {
            type: 'paragraph',
            text: [
              'Region: North\nDate: 2024-03-01\nUnits: 3\nPrice: 2.5\nTotal: 7.5',
              'Region: South\nDate: 2024-03-02 14:30:00\nUnits: 4\nPrice: 0.1\nTotal: =C3*D3',
              'Region: East\nUnits: 5\nPrice: #N/A\nTotal: 10',
              'Region: Merged\nUnits: 1',
              'Units: 2',
            ].join('\n\n'),
            metadata: { kind: 'rows', sheet: 'Sales', firstRow: 2, lastRow: 7 },
          },
        ],
      },
      { type: 'section', title: 'Empty', metadata: { sheet: 'Empty' }, children: [] },
      {
        type: 'section',
        title: '汇总',
        metadata: { sheet: '汇总', hidden: true, headerRow: 1, columns: ['产品', 'Column B', '销量'] },
        children: [
          {
            type: 'paragraph',
            text: '产品: 苹果\nColumn B: TRUE\n销量: 10\nColumn D: extra\n\n产品: Bold part\nColumn B: Link',
            metadata: { kind: 'rows', sheet: '汇总', firstRow: 2, lastRow: 3 },
          },
        ],
      },
    ]);
  });

  it('is the registered parser for workbooks detected by content', async () => {
    const input = await workbookInput(
      (workbook) => workbook.addWorksheet('Only').addRows([['k'], ['v']]),
      'misnamed.txt',
    );
    const type = detectFileType(input.bytes, input.filename);
    expect(type).toBe('xlsx');
    const doc = await parseDocument(input, type);
    expect(paragraphs(section(doc.children, 0)).map((p) => p.text)).toEqual(['k: v']);
  });

  it('takes the title from the core properties when the workbook has one', async () => {
    const input = await workbookInput((workbook) => {
      workbook.title = 'Quarterly & Annual';
      workbook.addWorksheet('Data').addRow(['a']);
    }, 'reports/q1.xlsx');
    const doc = await parseXlsx(input);
    expect(doc.title).toBe('Quarterly & Annual');
    expect(doc.metadata).toMatchObject({ title: 'Quarterly & Annual', sheets: 1 });
  });

  it('falls back to the file name without its extension when there is no core title', async () => {
    const input = await workbookInput(
      (workbook) => workbook.addWorksheet('Data'),
      'reports/2024 budget.xlsx',
    );
    expect((await parseXlsx(input)).title).toBe('2024 budget');
  });

  it('starts the header at the first non-empty row and names its columns from where the table starts', async () => {
    const input = await workbookInput((workbook) => {
      const sheet = workbook.addWorksheet('Offset');
      sheet.getCell('C3').value = 'Name';
      sheet.getCell('E3').value = 'Score';
      sheet.getCell('C4').value = 'Ann';
      sheet.getCell('D4').value = 'x';
      sheet.getCell('E4').value = 9;
    });
    const sheet = section((await parseXlsx(input)).children, 0);
    expect(sheet.metadata).toEqual({ sheet: 'Offset', headerRow: 3, columns: ['Name', 'Column D', 'Score'] });
    expect(paragraphs(sheet).map((p) => p.text)).toEqual(['Name: Ann\nColumn D: x\nScore: 9']);
  });

  it('lists the column names when a sheet has a header row and no data', async () => {
    const input = await workbookInput((workbook) => workbook.addWorksheet('Header').addRow(['id', 'name']));
    expect(section((await parseXlsx(input)).children, 0).children).toEqual([
      { type: 'paragraph', text: 'Columns: id, name', metadata: { kind: 'header', sheet: 'Header', row: 1 } },
    ]);
  });

  it('groups rows into paragraphs of at most 800 characters that together cover every row once', async () => {
    const input = await workbookInput((workbook) => {
      const sheet = workbook.addWorksheet('Many');
      sheet.addRow(['id', 'note']);
      for (let i = 1; i <= 200; i++) sheet.addRow([i, `note number ${i} ${'x'.repeat(i % 50)}`]);
    });
    const found = paragraphs(section((await parseXlsx(input)).children, 0));
    expect(found.length).toBeGreaterThan(10);
    let next = 2;
    for (const paragraph of found) {
      expect(paragraph.text.length).toBeLessThanOrEqual(800);
      expect(paragraph.metadata?.firstRow).toBe(next);
      const rows = paragraph.text.split('\n\n');
      expect(rows.length).toBe(Number(paragraph.metadata?.lastRow) - next + 1);
      expect(rows[0]).toBe(`id: ${next - 1}\nnote: note number ${next - 1} ${'x'.repeat((next - 1) % 50)}`);
      next = Number(paragraph.metadata?.lastRow) + 1;
    }
    expect(next).toBe(202);
  });

  it('splits a row longer than the bound between its lines', async () => {
    const input = await workbookInput((workbook) => {
      const sheet = workbook.addWorksheet('Wide');
      sheet.addRow(['a', 'b', 'c']);
      sheet.addRow(['x'.repeat(500), 'y'.repeat(500), 'z']);
    });
    const found = paragraphs(section((await parseXlsx(input)).children, 0));
    expect(found.map((p) => p.text)).toEqual([`a: ${'x'.repeat(500)}`, `b: ${'y'.repeat(500)}\nc: z`]);
    expect(found.map((p) => [p.metadata?.firstRow, p.metadata?.lastRow])).toEqual([
      [2, 2],
      [2, 2],
    ]);
  });

  it('keeps sheets in workbook order and reads each line break inside a cell as a space', async () => {
    const input = await workbookInput((workbook) => {
      workbook.addWorksheet('B').addRows([['k'], ['two\nlines']]);
      workbook.addWorksheet('A').addRows([['k'], ['v']]);
    });
    const doc = await parseXlsx(input);
    expect(doc.children.map((node) => (node.type === 'section' ? node.title : node.type))).toEqual([
      'B',
      'A',
    ]);
    expect(paragraphs(section(doc.children, 0))[0]?.text).toBe('k: two lines');
  });

  it('refuses an encrypted or legacy (OLE) workbook with a reason', async () => {
    const ole = new Uint8Array(2048);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    // Only a legacy workbook that opens is advised to be saved as .xlsx; a corrupt one is called damaged.
    const legacy = new Uint8Array(
      readFileSync(join(import.meta.dirname, '../../fixtures/legacy/budget.xls')),
    );
    await expect(parseXlsx({ bytes: legacy, filename: 'old.xlsx' })).rejects.toThrow(
      'old.xlsx is not a readable Excel workbook: it is a legacy Excel 97-2003 (.xls) workbook; save it as .xlsx',
    );
    const corrupt = await parseXlsx({ bytes: ole, filename: 'old.xlsx' }).catch((e: unknown) => e);
    expect((corrupt as Error).message).toMatch(
      /^old\.xlsx is damaged: its OLE container is truncated or corrupted, so it is not a valid Excel workbook \(.*\); open it in the program that made it/,
    );
    expect((corrupt as Error).message).not.toMatch(/save it as/);
    ole.set(Buffer.from('EncryptedPackage', 'utf16le'), 1024);
    await expect(parseXlsx({ bytes: ole, filename: 'secret.xlsx' })).rejects.toThrow(
      'secret.xlsx is password-protected (an encrypted Excel workbook); save it without a password',
    );
  });

  it('refuses bytes that are not a ZIP archive', async () => {
    const bytes = new TextEncoder().encode('name,value\na,1\n');
    const error = await parseXlsx({ bytes, filename: 'data.xlsx' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect((error as Error).message).toBe('data.xlsx is not an Excel workbook (it is not a ZIP archive)');
  });

  it('refuses a truncated workbook as a damaged archive', async () => {
    const input = await workbookInput((workbook) => workbook.addWorksheet('S').addRow(['a']));
    const bytes = input.bytes.subarray(0, Math.floor(input.bytes.length / 2));
    await expect(parseXlsx({ bytes, filename: 'cut.xlsx' })).rejects.toThrow(/ZIP archive is damaged/);
  });

  it('refuses a ZIP archive without a workbook part', async () => {
    const bytes = zipBytes([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/other.xml', data: '<x/>' },
    ]);
    await expect(parseXlsx({ bytes, filename: 'odd.xlsx' })).rejects.toThrow(
      'odd.xlsx is a ZIP archive without a workbook part (xl/workbook.xml)',
    );
  });

  it('refuses a workbook whose sheet XML is malformed, naming the parse error', async () => {
    const bytes = zipBytes([
      { name: '[Content_Types].xml', data: '<Types/>' },
      {
        name: 'xl/workbook.xml',
        data: '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        data: '<worksheet><sheetData><row r="1"><c r="A1" t="str"><v>a</v></c></row></sheetData></worksheet>\n<<junk',
      },
    ]);
    const error = await parseXlsx({ bytes, filename: 'bad.xlsx' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect((error as Error).message).toMatch(
      /^bad\.xlsx is damaged: the workbook could not be read \(.+\); open it in the program that made it/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { ParagraphNode } from '#shared/parse/types.ts';
import type { SheetRow } from '#shared/parse/xlsx/sheet-layout.ts';
import { sheetSection } from '#shared/parse/xlsx/sheet-section.ts';

const text = (column: number, value: string) => ({ column, text: value, label: true });
const value = (column: number, v: string) => ({ column, text: v, label: false });

describe('sheetSection', () => {
  it('reads a second table lower in a sheet under its own header row', async () => {
    const rows: SheetRow[] = [
      { number: 1, cells: [text(1, 'Year'), text(2, 'Freshwater ducks')] },
      { number: 2, cells: [value(1, '2021'), value(2, '402')] },
      { number: 3, cells: [value(1, '2022'), value(2, '447')] },
      { number: 5, cells: [text(1, 'Site'), text(2, 'Volunteers')] },
      { number: 6, cells: [text(1, 'North Marsh'), value(2, '12')] },
    ];
    const section = await sheetSection(
      { name: 'Ducks', hidden: false, rows },
      { maxChars: 800, date1904: false },
    );
    const paragraphs = section.children as ParagraphNode[];
    expect(paragraphs.map((p) => p.text)).toEqual([
      'Year: 2021\nFreshwater ducks: 402\n\nYear: 2022\nFreshwater ducks: 447',
      'Site: North Marsh\nVolunteers: 12',
    ]);
    expect(paragraphs[1]?.metadata).toMatchObject({ headerRow: 5, columns: ['Site', 'Volunteers'] });
    expect(section.metadata?.columns).toEqual(['Year', 'Freshwater ducks']);
  });

  it('reads a row of labels that repeats the header names as the next header, with no blank row', async () => {
    const rows: SheetRow[] = [
      { number: 1, cells: [text(1, 'Berth'), text(2, 'Vessel'), text(3, 'Qty'), text(4, 'Cargo')] },
      { number: 2, cells: [text(1, 'B3'), text(2, 'MV Gloria'), value(3, '59793'), text(4, 'Coal')] },
      {
        number: 3,
        cells: [text(1, 'Waiting'), text(2, 'Vessel'), text(3, 'Arrived'), text(4, 'Qty'), text(5, 'Cargo')],
      },
      {
        number: 4,
        cells: [
          text(1, '1'),
          text(2, 'MV Kiveli'),
          value(3, '29/10/2017'),
          value(4, '16500'),
          text(5, 'MOP'),
        ],
      },
      // Labels only, but no header names: a row of the table.
      { number: 5, cells: [text(1, '2'), text(2, 'MV Sunrise')] },
    ];
    const section = await sheetSection(
      { name: 'Lineup', hidden: false, rows },
      { maxChars: 800, date1904: false },
    );
    const paragraphs = section.children as ParagraphNode[];
    expect(paragraphs.map((p) => p.text)).toEqual([
      'Berth: B3\nVessel: MV Gloria\nQty: 59793\nCargo: Coal',
      'Waiting: 1\nVessel: MV Kiveli\nArrived: 29/10/2017\nQty: 16500\nCargo: MOP\n\nWaiting: 2\nVessel: MV Sunrise',
    ]);
    expect(paragraphs[1]?.metadata).toMatchObject({
      headerRow: 3,
      columns: ['Waiting', 'Vessel', 'Arrived', 'Qty', 'Cargo'],
    });
  });

  it('keeps a row whose cells equal the header names of their own columns as a row', async () => {
    // A sheet whose first row is data: later rows repeat its values in the same columns.
    const rows: SheetRow[] = [
      { number: 1, cells: [text(1, 'World Record'), text(2, 'Snatch'), text(3, 'Akakios Kakiasvilis')] },
      { number: 2, cells: [text(1, 'World Record'), text(2, 'Clean & Jerk'), text(3, 'Szymon Kolecki')] },
      { number: 3, cells: [text(1, 'World Record'), text(2, 'Total'), text(3, 'Akakios Kakiasvilis')] },
    ];
    const section = await sheetSection(
      { name: 'Records', hidden: false, rows },
      { maxChars: 800, date1904: false },
    );
    const paragraphs = section.children as ParagraphNode[];
    expect(paragraphs).toHaveLength(1);
    expect(paragraphs[0]?.text).toContain(
      'World Record: World Record\nSnatch: Total\nAkakios Kakiasvilis: Akakios Kakiasvilis',
    );
  });

  it('keeps a text row after a blank row as a row when the table held no values', async () => {
    const rows: SheetRow[] = [
      { number: 1, cells: [text(1, 'Name'), text(2, 'City')] },
      { number: 2, cells: [text(1, 'Ann'), text(2, 'Oslo')] },
      { number: 4, cells: [text(1, 'Bo'), text(2, 'Lund')] },
    ];
    const section = await sheetSection(
      { name: 'People', hidden: false, rows },
      { maxChars: 800, date1904: false },
    );
    expect((section.children as ParagraphNode[]).map((p) => p.text)).toEqual([
      'Name: Ann\nCity: Oslo\n\nName: Bo\nCity: Lund',
    ]);
  });
});

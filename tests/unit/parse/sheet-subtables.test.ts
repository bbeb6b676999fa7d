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

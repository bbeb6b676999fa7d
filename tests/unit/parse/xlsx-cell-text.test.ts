import { describe, expect, it } from 'vitest';
import { cellText } from '#shared/parse/xlsx/cell-text.ts';
import { columnLetter, fallbackColumnName } from '#shared/parse/xlsx/column-name.ts';
import { isDateFormat, serialToIsoDate } from '#shared/parse/xlsx/number-format.ts';

const plain = { date1904: false };

describe('cellText', () => {
  it('gives a formula its cached result, not its text', () => {
    expect(cellText({ formula: 'SUM(A1:A3)', result: 42 }, plain)).toBe('42');
  });

  it('falls back to the formula when there is no cached result', () => {
    expect(cellText({ formula: 'SUM(A1:A3)' }, plain)).toBe('=SUM(A1:A3)');
  });

  it('shows a cached error result as written', () => {
    expect(cellText({ formula: 'VLOOKUP(1,A:B,2)', result: { error: '#N/A' } }, plain)).toBe('#N/A');
  });

  it('formats a date-formatted formula result as an ISO date', () => {
    expect(cellText({ formula: 'TODAY()', result: 45352 }, { numFmt: 'yyyy-mm-dd', date1904: false })).toBe(
      '2024-03-01',
    );
  });

  it('prints at most 15 significant digits, as Excel does', () => {
    expect(cellText(0.1 + 0.2, plain)).toBe('0.3');
    expect(cellText(1234567.125, plain)).toBe('1234567.125');
  });

  it('shows a percentage-formatted number as a percentage', () => {
    expect(cellText(0.125, { numFmt: '0.0%', date1904: false })).toBe('12.5%');
  });

  it('flattens rich text and gives a hyperlink its text', () => {
    expect(cellText({ richText: [{ text: 'a ' }, { text: 'b' }] }, plain)).toBe('a b');
    expect(cellText({ text: 'site', hyperlink: 'https://example.com' }, plain)).toBe('site');
  });

  it('writes booleans as TRUE / FALSE and errors as written', () => {
    expect(cellText(true, plain)).toBe('TRUE');
    expect(cellText(false, plain)).toBe('FALSE');
    expect(cellText({ error: '#DIV/0!' }, plain)).toBe('#DIV/0!');
  });

  it('gives an empty string for empty and blank cells', () => {
    expect(cellText(null, plain)).toBe('');
    expect(cellText(undefined, plain)).toBe('');
    expect(cellText('   ', plain)).toBe('');
  });

  it('writes a Date at midnight as a day and otherwise with its time', () => {
    expect(cellText(new Date(Date.UTC(2023, 11, 31)), plain)).toBe('2023-12-31');
    expect(cellText(new Date(Date.UTC(2023, 11, 31, 8, 5, 9)), plain)).toBe('2023-12-31 08:05:09');
  });
});

describe('isDateFormat', () => {
  it('tells date and time formats from number formats with literal letters', () => {
    expect(isDateFormat('yyyy-mm-dd')).toBe(true);
    expect(isDateFormat('[$-409]h:mm AM/PM')).toBe(true);
    expect(isDateFormat('[h]:mm:ss')).toBe(true);
    expect(isDateFormat('#,##0.00 "days"')).toBe(false);
    expect(isDateFormat('[Red]0.00')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
    expect(isDateFormat(undefined)).toBe(false);
  });
});

describe('serialToIsoDate', () => {
  it('reads serials in the 1900 and the 1904 date systems', () => {
    expect(serialToIsoDate(45352, false)).toBe('2024-03-01');
    expect(serialToIsoDate(45352.75, false)).toBe('2024-03-01 18:00:00');
    expect(serialToIsoDate(0, true)).toBe('1904-01-01');
  });
});

describe('columnLetter', () => {
  it('names columns by letters as Excel does', () => {
    expect([1, 26, 27, 52, 703, 16384].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AZ', 'AAA', 'XFD']);
    expect(fallbackColumnName(3)).toBe('Column C');
  });
});

import { describe, expect, it } from 'vitest';
import { askedField, formFields, planForm } from '#shared/qa/tables/form.ts';
import { planTable } from '#shared/qa/tables/plan.ts';
import type { Table } from '#shared/qa/tables/table.ts';

const table = (columns: string[], rows: string[][]): Table => ({
  title: 'Estimate',
  columns,
  rows: rows.map((cells, i) => ({ number: i + 1, cells, passage: 0 })),
});

/** The first table of markitdown's repair estimate (a third-party test file), as its Markdown reads. */
const ESTIMATE = table(
  ['Customer Information', '', '', 'Vehicle Information', ''],
  [
    ['Insured name', 'Gabriel Diaz', '', 'Year', '2022'],
    ['Claim #', 'SF-1008', '', 'Make', 'Jeep'],
    ['Policy #', 'POL-2022-555', '', 'Model', 'Grand Cherokee'],
    ['Email', 'gabriel@contoso.com', '', 'VIN', '1C4RJFBG2NC123456'],
    ['', '', '', 'Color', 'White'],
    ['Repair Order #', 'RO-20221108', '', 'Estimator', 'Ellis Turner'],
  ],
);

describe('forms: tables of label/value pairs', () => {
  it('reads the pairs of both halves of the form', () => {
    const fields = formFields(ESTIMATE) ?? [];
    expect(fields).toContainEqual({ label: 'VIN', value: '1C4RJFBG2NC123456', row: 3 });
    expect(fields).toContainEqual({ label: 'Insured name', value: 'Gabriel Diaz', row: 0 });
    expect(fields).toContainEqual({ label: 'Color', value: 'White', row: 4 });
    expect(fields).toHaveLength(11);
  });

  it('answers the value of the label a question names, its row cited', () => {
    expect(planForm('What is the VIN of Gabriel Diaz’s Jeep?', ESTIMATE)).toMatchObject({
      shape: 'field',
      result: ['1C4RJFBG2NC123456'],
      rows: [3],
    });
    expect(planForm('What color is the Jeep?', ESTIMATE)?.result).toEqual(['White']);
    expect(planForm('Who was the estimator?', ESTIMATE)?.result).toEqual(['Ellis Turner']);
    expect(askedField('How fast does it go?', formFields(ESTIMATE) ?? [])).toBeUndefined();
  });

  it('takes no table of records for a form', () => {
    const records = table(
      ['Team', 'Stanley Cups'],
      [
        ['Montreal Canadiens', '24'],
        ['Toronto Maple Leafs', '13'],
      ],
    );
    expect(formFields(records)).toBeUndefined();
    // A value column whose labels repeat is a column of records left unnamed, not a form.
    const unnamed = table(
      ['Site', ''],
      [
        ['North Marsh', '12'],
        ['North Marsh', '7'],
      ],
    );
    expect(formFields(unnamed)).toBeUndefined();
  });

  it('answers better than the record planner did on the form', () => {
    expect(planTable('What is the VIN of Gabriel Diaz’s Jeep?', ESTIMATE)?.result).not.toEqual([
      '1C4RJFBG2NC123456',
    ]);
  });
});

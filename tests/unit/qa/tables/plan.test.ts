import { describe, expect, it } from 'vitest';
import { tableAnswer } from '#shared/qa/tables/answer.ts';
import { planTable } from '#shared/qa/tables/plan.ts';
import { readPipeTable, readSheetRows } from '#shared/qa/tables/read-rows.ts';
import { cellNumber, type Table } from '#shared/qa/tables/table.ts';

/** A small table built the way the sheet reader writes its rows. */
function table(title: string, columns: string[], rows: string[][]): Table {
  const content = rows
    .map((cells) =>
      cells
        .map((cell, i) => (cell ? `${columns[i]}: ${cell}` : ''))
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
  return readSheetRows(title, columns, [{ content, metadata: { firstRow: 2 } }]);
}

const medals = table(
  'Medal table',
  ['Rank', 'Nation', 'Gold', 'Silver', 'Total'],
  [
    ['1', 'Norway', '14', '14', '39'],
    ['2', 'Germany', '14', '10', '31'],
    ['3', 'Canada', '11', '8', '26'],
    ['4', 'East Germany', '9', '10', '25'],
    ['5', 'Japan', '4', '5', '13'],
  ],
);

const races = table(
  'Results',
  ['Date', 'Venue', 'Winner', 'Time'],
  [
    ['5 March 1998', 'Oslo', 'Anja Pärson', '1:52'],
    ['12 March 1998', 'Åre', 'Janica Kostelić', '1:49'],
    ['3 April 2001', 'Oslo', 'Anja Pärson', '1:51'],
    ['8 April 2003', 'Lahti', 'Maria Riesch', '1:55'],
  ],
);

describe('planTable', () => {
  it('looks up a column of the row a cell names', () => {
    expect(planTable('How many silver medals did Japan win?', medals)).toMatchObject({
      shape: 'lookup',
      result: ['5'],
    });
  });

  it('counts the rows a filter keeps', () => {
    expect(planTable('How many races did Anja Pärson win?', races)).toMatchObject({
      shape: 'count',
      result: ['2'],
    });
  });

  it('counts with a numeric comparison and with a negation', () => {
    expect(planTable('How many nations won more than 10 gold?', medals)?.result).toEqual(['3']);
    expect(planTable('How many races were not in Oslo?', races)?.result).toEqual(['2']);
  });

  it('compares dates by their year', () => {
    expect(planTable('How many races were held after 2000?', races)?.result).toEqual(['2']);
  });

  it('finds the highest and the lowest of a named column', () => {
    expect(planTable('Which nation had the most silver medals?', medals)).toMatchObject({
      shape: 'highest',
      result: ['Norway'],
    });
    expect(planTable('Which nation won the fewest total medals?', medals)).toMatchObject({
      shape: 'lowest',
      result: ['Japan'],
    });
  });

  it('takes the first and the last matching row in table order', () => {
    expect(planTable('Who won the first race in Oslo?', races)).toMatchObject({
      shape: 'first',
      result: ['Anja Pärson'],
    });
    expect(planTable('What was the last venue?', races)).toMatchObject({ shape: 'last', result: ['Lahti'] });
  });

  it('sums and averages a column', () => {
    expect(planTable('What is the total of gold medals?', medals)).toMatchObject({
      shape: 'sum',
      result: ['52'],
    });
    expect(planTable('What is the average total?', medals)).toMatchObject({
      shape: 'average',
      result: ['26.8'],
    });
  });

  it('takes the difference between two rows', () => {
    expect(planTable('What is the difference in total between Norway and Japan?', medals)).toMatchObject({
      shape: 'difference',
      result: ['26'],
    });
  });

  it('reads the row before or after a named one', () => {
    expect(planTable('Which nation is listed after Canada?', medals)).toMatchObject({
      shape: 'next',
      result: ['East Germany'],
    });
    expect(planTable('Which nation is listed before Canada?', medals)?.result).toEqual(['Germany']);
  });

  it('chooses between two named rows', () => {
    expect(planTable('Who won more gold, Canada or Japan?', medals)).toMatchObject({
      shape: 'choice',
      result: ['Canada'],
    });
  });

  it('compares with a named row', () => {
    expect(planTable('Which nations won more gold than Canada?', medals)?.result).toEqual([
      'Norway',
      'Germany',
    ]);
  });

  it('answers a yes/no question: yes when a row meets every condition, no with what the row holds', () => {
    const features = table(
      'Features',
      ['Feature', 'Status'],
      [
        ['Encryption', 'Enabled'],
        ['Audit log', 'Disabled'],
      ],
    );
    expect(planTable('Is encryption enabled?', features)).toMatchObject({
      shape: 'yes-no',
      result: ['Yes'],
      rows: [0],
    });
    const no = planTable('Is the audit log enabled?', features);
    expect(no).toMatchObject({ shape: 'yes-no', result: ['No'], rows: [1] });
    expect(no?.how).toMatch(/the row where Feature has ‘audit log’: Status Disabled\.$/);
    expect(planTable('Is encryption not enabled?', features)?.result).toEqual(['No']);
    expect(planTable('Did Norway win more than 10 gold?', medals)?.result).toEqual(['Yes']);
    expect(planTable('Did Japan win more than 10 gold?', medals)).toMatchObject({
      result: ['No'],
      rows: [4],
    });
    // Rows compared with each other are no one row's yes or no.
    expect(planTable('Did Canada win more gold than Japan?', medals)?.shape).not.toBe('yes-no');
    // Not yes/no questions: an either/or, and a lookup.
    expect(planTable('Is encryption enabled or disabled?', features)?.shape).not.toBe('yes-no');
    expect(planTable('What is the status of encryption?', features)?.result).toEqual(['Enabled']);
  });

  it('answers "when" by a column of dates and "how much" by the one amount of the named row', () => {
    const lineup = table(
      'Lineup',
      ['Expected to report', 'Vessel', 'ETA', 'Qty', 'Cargo'],
      [
        ['1', 'MV Mukarnas', '02/11/2017', '6412 MT', 'Soda ash'],
        ['2', 'MV Cic Oslo', '04/10/2017', '125527 MT', 'Coal'],
      ],
    );
    expect(planTable('When is MV Mukarnas expected?', lineup)).toMatchObject({
      shape: 'lookup',
      result: ['02/11/2017'],
    });
    expect(planTable('How much coal did MV Cic Oslo bring?', lineup)).toMatchObject({
      shape: 'lookup',
      result: ['125527 MT'],
    });
    expect(planTable('How many tons of coal did MV Cic Oslo bring?', lineup)?.result).toEqual(['125527 MT']);
    expect(planTable('How many vessels carry coal?', lineup)).toMatchObject({
      shape: 'count',
      result: ['1'],
    });
  });

  it('answers nothing when the question names nothing in the table', () => {
    expect(planTable('Who painted the Mona Lisa?', medals)).toBeUndefined();
  });
});

describe('tableAnswer', () => {
  it('leads with the result, then how, then the rows used with their header names, cited', () => {
    const plan = planTable('How many silver medals did Japan win?', medals);
    if (!plan) throw new Error('no plan');
    const { text } = tableAnswer('How many silver medals did Japan win?', plan, medals, () => 1);
    const [label, result, how, rows] = text.split('\n\n');
    expect(label).toMatch(/^Offline table answer/);
    expect(result).toBe('5 [1]');
    expect(how).toMatch(/^How: Silver of the row where Nation has ‘japan’/);
    expect(rows).toContain('- Rank: 5 · Nation: Japan · Gold: 4 · Silver: 5 · Total: 13 [1]');
  });

  it('gives the rows used as a table of the columns they fill, each row cited, after the text it replaces', () => {
    const question = 'Which nations won more gold than Canada?';
    const plan = planTable(question, medals);
    if (!plan) throw new Error('no plan');
    const { text, table } = tableAnswer(question, plan, medals, (p) => p + 2);
    if (!table) throw new Error('no table');
    expect(table.title).toBe('Medal table');
    expect(table.columns).toEqual(['Rank', 'Nation', 'Gold', 'Silver', 'Total']);
    expect(table.rows.map((r) => r.cells[1])).toEqual(['Canada', 'Norway', 'Germany']);
    expect(table.rows[1]).toEqual({ citation: 2, number: 2, cells: ['1', 'Norway', '14', '14', '39'] });
    expect(text.slice(table.text_at)).toMatch(/^Rows used \(Medal table\):\n- Rank: 3 · Nation: Canada/);
  });

  it('leaves out of the table a column no row used fills', () => {
    const sparse = table(
      'Sparse',
      ['Name', 'Note', 'Score'],
      [
        ['Ann', '', '3'],
        ['Bo', '', '5'],
      ],
    );
    const plan = planTable('What is the score of Bo?', sparse);
    if (!plan) throw new Error('no plan');
    const answer = tableAnswer('What is the score of Bo?', plan, sparse, () => 1).table;
    if (!answer) throw new Error('no table');
    expect(answer.columns).toEqual(['Name', 'Score']);
    expect(answer.rows).toEqual([{ citation: 1, number: 3, cells: ['Bo', '5'] }]);
  });
});

describe('table readers', () => {
  it('keeps two columns of one name apart', () => {
    const t = readSheetRows(
      'Cup',
      ['Winner', 'County', 'Opponent', 'County'],
      [
        {
          content: 'Winner: Clara\nCounty: Kilkenny\nOpponent: Celbridge\nCounty: Kildare',
          metadata: { firstRow: 2 },
        },
      ],
    );
    expect(t.rows[0]?.cells).toEqual(['Clara', 'Kilkenny', 'Celbridge', 'Kildare']);
  });

  it('reads a pipe table from a document', () => {
    const t = readPipeTable('Budget', '| Item | Cost |\n| --- | --- |\n| Rent | 1,200 |\n| Food | 300 |');
    expect(t?.columns).toEqual(['Item', 'Cost']);
    expect(planTable('What is the cost of rent?', t as Table)?.result).toEqual(['1,200']);
  });

  it('reads amounts past separators, signs and units', () => {
    expect([
      cellNumber('1,238'),
      cellNumber('$1,200.50'),
      cellNumber('556+'),
      cellNumber('−3'),
      cellNumber('n/a'),
    ]).toEqual([1238, 1200.5, 556, -3, undefined]);
  });
});

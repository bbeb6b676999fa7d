import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { markdownParser } from '#shared/parse/markdown.ts';
import { csvParser, xlsParser } from '#shared/parse/sheets/parse-workbook.ts';
import type { Parser } from '#shared/parse/types.ts';
import { xlsxParser } from '#shared/parse/xlsx/parse-xlsx.ts';
import { ask } from '#shared/qa/ask.ts';
import type { DocumentsDeps } from '#shared/qa/documents/flow.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { writeXls } from '../../helpers/xls-writer.ts';
import { indexWithRenditions } from './documents-corpus.ts';
import { collect, done } from './events.ts';

/** The newcomer's Stanley Cup CSV (issue 31), made small. */
const CUPS_CSV = [
  'Team,Stanley Cups,Last won',
  'Montreal Canadiens,24,1993',
  'Toronto Maple Leafs,13,1967',
  'Detroit Red Wings,11,2008',
  'Boston Bruins,6,2011',
  'Chicago Blackhawks,6,2015',
  'Edmonton Oilers,5,1990',
].join('\n');

/** Prose that answers a question whose only word a table holds is a year (the walk-through's misroute). */
const TRAVEL_NOTES_ZH = [
  '# 新闻摘编',
  '',
  '2022年春运时间：2022年1月17日—2月25日，共40天。春运第一天的火车票1月3日开抢。',
].join('\n');

/** A shop receipt in prose (markitdown's retail purchase test file, shortened). */
const RECEIPT_MD = [
  '# RECEIPT-2024-TXN-98765 retail purchase',
  '',
  'TECHMART ELECTRONICS, Store #0342 - Downtown SF. Wireless headphones $299.99, USB-C hub $159.98.',
  '',
  'SUBTOTAL $863.91. Sales tax $66.23. TOTAL $821.14, paid by Visa.',
].join('\n');

/** An inventory whose column a generic word of a question ("total") names (markitdown's borderless table, shortened). */
const INVENTORY_CSV = [
  'Product Code,Category,Unit Cost,Total Value',
  'SKU-8847,Electronics,45.00,13005.00',
  'SKU-9201,Hardware,32.50,25285.00',
  'SKU-4563,Software,120.00,18720.00',
].join('\n');

/** A repair estimate laid out as label/value pairs (markitdown's test file, shortened). */
const ESTIMATE_MD = [
  '# Preliminary Estimate',
  '',
  '| Customer Information |              |     | Vehicle Information |                   |',
  '| -------------------- | ------------ | --- | ------------------- | ----------------- |',
  '| Insured name         | Gabriel Diaz |     | Year                | 2022              |',
  '| Claim #              | SF-1008      |     | Make                | Jeep              |',
  '| Email                | gd@x.example |     | VIN                 | 1C4RJFBG2NC123456 |',
  '|                      |              |     | Color               | White             |',
].join('\n');

/** Ducks counted by year, with a second table lower in the sheet under its own header. */
async function ducksXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Duck counts');
  sheet.addRow(['Year', 'Freshwater ducks', 'Sea ducks']);
  sheet.addRow([2019, 410, 120]);
  sheet.addRow([2020, 385, 131]);
  sheet.addRow([2021, 402, 118]);
  sheet.addRow([2022, 447, 125]);
  sheet.addRow([]);
  sheet.addRow(['Site', 'Volunteers']);
  sheet.addRow(['North Marsh', 12]);
  sheet.addRow(['Lake Shore', 7]);
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/** The newcomer's .xls (Excel 97-2003): duck counts by kind, the years as columns. */
const DUCKS_BY_YEAR_XLS = writeXls([
  {
    name: 'Waterfowl survey',
    rows: [
      ['Kind', 2019, 2020, 2021, 2022],
      ['Freshwater ducks', 1210, 1185, 1302, 1347],
      ['Sea ducks', 320, 331, 298, 305],
      ['Geese', 88, 92, 97, 90],
    ],
  },
]);

/** A file given as text, parsed as the pipeline parses its bytes. */
function parseText(parser: Parser, text: string, filename: string) {
  return parser.parse({ bytes: new TextEncoder().encode(text), filename });
}

describe('offline answers over a CSV, an .xlsx and an .xls (issue 31)', () => {
  let database: Database;
  let dir: string;
  let deps: DocumentsDeps;
  let surveyId: string;
  const embedder = testEmbedder();

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    dir = mkdtempSync(join(tmpdir(), 'dropqa-tables-'));
    const cups = await parseText(csvParser, CUPS_CSV, 'stanley-cups.csv');
    const ducks = await xlsxParser.parse({ bytes: await ducksXlsx(), filename: 'ducks.xlsx' });
    const survey = await xlsParser.parse({ bytes: DUCKS_BY_YEAR_XLS, filename: 'waterfowl-survey.xls' });
    const champions = await csvParser.parse({
      bytes: readFileSync(join(import.meta.dirname, '../../fixtures/tables/nba-champions-zh.csv')),
      filename: 'nba-champions-zh.csv',
    });
    const travel = await parseText(markdownParser, TRAVEL_NOTES_ZH, 'travel-zh.md');
    const estimate = await parseText(markdownParser, ESTIMATE_MD, 'estimate.md');
    const receipt = await parseText(markdownParser, RECEIPT_MD, 'receipt.md');
    const inventory = await parseText(csvParser, INVENTORY_CSV, 'inventory.csv');
    const indexed = await indexWithRenditions(database.db, new LocalBlobStore(dir), [
      { filename: 'receipt.md', versions: [receipt] },
      { filename: 'inventory.csv', versions: [inventory] },
      { filename: 'travel-zh.md', versions: [travel] },
      { filename: 'estimate.md', versions: [estimate] },
      { filename: 'stanley-cups.csv', versions: [cups] },
      { filename: 'ducks.xlsx', versions: [ducks] },
      { filename: 'waterfowl-survey.xls', versions: [survey] },
      { filename: 'nba-champions-zh.csv', versions: [champions] },
    ]);
    surveyId = indexed.get('waterfowl-survey.xls')?.id ?? '';
    deps = {
      db: database.db,
      access: ALL_COLLECTIONS,
      embedder,
      search: loadConfig({ env: {} }).search,
      store: new LocalBlobStore(dir),
      providers: { embedder, label: 'offline (extractive)' },
    };
  });
  afterAll(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const answer = async (question: string, documentIds?: string[]) =>
    done(
      await collect(ask(deps, askRequestSchema.parse({ question, mode: 'auto', document_ids: documentIds }))),
    );

  it('leads with the Maple Leafs cups and quotes their row whole, cited', async () => {
    const response = await answer('How many Stanley Cups have the Maple Leafs won?');
    const body = response.answer.split('\n\n').slice(1).join('\n\n');
    expect(body.startsWith('13 [1]')).toBe(true);
    expect(response.answer).toContain('- Team: Toronto Maple Leafs · Stanley Cups: 13 · Last won: 1967 [1]');
    expect(response.sources[0]?.document_name).toBe('stanley-cups.csv');
    expect(response.table).toEqual({
      title: 'stanley-cups',
      columns: ['Team', 'Stanley Cups', 'Last won'],
      rows: [{ citation: 1, number: 3, cells: ['Toronto Maple Leafs', '13', '1967'] }],
      text_at: response.answer.indexOf('Rows used ('),
    });
  });

  it('reads the 2022 freshwater ducks from the .xlsx', async () => {
    const response = await answer('How many freshwater ducks in 2022?');
    expect(response.answer.split('\n\n')[1]).toBe('447 [1]');
    expect(response.answer).toContain('Year: 2022 · Freshwater ducks: 447');
  });

  it('reads the 2022 column of the .xls whose years are columns, the row cited whole', async () => {
    // Asked of that document alone, as the newcomer did (ducks.xlsx counts freshwater ducks too).
    const response = await answer('How many freshwater ducks in 2022?', [surveyId]);
    expect(response.answer.split('\n\n')[1]).toBe('1347 [1]');
    expect(response.answer).toContain(
      '- Kind: Freshwater ducks · 2019: 1210 · 2020: 1185 · 2021: 1302 · 2022: 1347 [1]',
    );
    expect(response.sources[0]?.document_name).toBe('waterfowl-survey.xls');
  });

  it('names the sub-table columns by their own header', async () => {
    const response = await answer('How many volunteers at North Marsh?');
    expect(response.answer.split('\n\n')[1]).toBe('12 [1]');
    expect(response.answer).toContain('Site: North Marsh · Volunteers: 12');
  });

  it('reports no unverified quote and a relevance above 0 for the cited rows', async () => {
    const response = await answer('How many Stanley Cups have the Maple Leafs won?');
    expect(response.answer).toContain('stanley-cups');
    expect(response.unverified_quotes).toBeUndefined();
    expect(response.sources.length).toBeGreaterThan(0);
    for (const source of response.sources) expect(source.relevance).toBeGreaterThan(0);
  });

  it('answers a yes/no question with what the named row holds', async () => {
    const response = await answer('Have the Maple Leafs won more than 50 Stanley Cups?');
    const [, result, how] = response.answer.split('\n\n');
    expect(result).toBe('No [1]');
    expect(how).toMatch(/the row where Team has ‘maple leafs’: Stanley Cups 13\.$/);
  });

  it('says plainly when no calculation fits and quotes the best rows whole', async () => {
    const response = await answer('Why have the Maple Leafs won more than 50 Stanley Cups?');
    const [, plain, rows] = response.answer.split('\n\n');
    expect(plain).toMatch(/^No calculation over this table fits the question/);
    expect(rows).toContain('- Team: Toronto Maple Leafs · Stanley Cups: 13 · Last won: 1967 [1]');
    expect(response.confidence).toBe('low');
  });

  it('answers a Chinese question over a table with Chinese headers', async () => {
    const response = await answer('湖人赢得过多少次总冠军？');
    expect(response.answer).toMatch(/^离线表格回答/);
    expect(response.answer.split('\n\n')[1]).toBe('17 [1]');
    expect(response.answer).toContain(
      '- 球队: 洛杉矶湖人 · 分区: 西部 · 总冠军次数: 17 · 最近夺冠: 2020 [1]',
    );
  });

  it('leaves a question to the prose when a lower-ranked table shares only a year with it', async () => {
    const response = await answer('2022年春运什么时候开始？');
    expect(response.answer).not.toContain('Freshwater');
    expect(response.answer).toContain('1月17日');
  });

  it('leaves a question to the prose when a lower-ranked table shares only a generic word ("total") with it', async () => {
    const response = await answer('What is the total on the retail receipt?');
    expect(response.answer).not.toMatch(/^Offline table answer/);
    expect(response.answer).toContain('TOTAL $821.14');
    expect(response.sources[0]?.document_name).toBe('receipt.md');
  });

  it('answers from that table when the question names it by more than the generic word', async () => {
    const response = await answer('What is the total value of the Hardware products?');
    expect(response.answer.split('\n\n')[1]).toBe('25285.00 [1]');
  });

  it('answers the value a form gives the label the question names, its pairs quoted', async () => {
    const response = await answer('What is the VIN of Gabriel Diaz’s Jeep?');
    const lines = response.answer.split('\n');
    const [result, row] = [lines[2], lines[7]];
    expect(result).toBe('1C4RJFBG2NC123456 [1]');
    expect(row).toBe('- Email: gd@x.example · VIN: 1C4RJFBG2NC123456 [1]');
  });

  it('answers a superlative with the row it used', async () => {
    const response = await answer('Which team has won the most Stanley Cups?');
    expect(response.answer.split('\n\n')[1]).toBe('Montreal Canadiens [1]');
  });
});

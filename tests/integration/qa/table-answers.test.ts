import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import { markdownParser } from '#shared/parse/markdown.ts';
import { csvParser } from '#shared/parse/sheets/parse-workbook.ts';
import { xlsxParser } from '#shared/parse/xlsx/parse-xlsx.ts';
import { ask } from '#shared/qa/ask.ts';
import type { DocumentsDeps } from '#shared/qa/documents/flow.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';
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

describe('offline answers over a CSV and an .xlsx (issue 31)', () => {
  let database: Database;
  let dir: string;
  let deps: DocumentsDeps;
  const embedder = testEmbedder();

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    dir = mkdtempSync(join(tmpdir(), 'dropqa-tables-'));
    const cups = await csvParser.parse({
      bytes: new TextEncoder().encode(CUPS_CSV),
      filename: 'stanley-cups.csv',
    });
    const ducks = await xlsxParser.parse({ bytes: await ducksXlsx(), filename: 'ducks.xlsx' });
    const champions = await csvParser.parse({
      bytes: readFileSync(join(import.meta.dirname, '../../fixtures/tables/nba-champions-zh.csv')),
      filename: 'nba-champions-zh.csv',
    });
    const travel = await markdownParser.parse({
      bytes: new TextEncoder().encode(TRAVEL_NOTES_ZH),
      filename: 'travel-zh.md',
    });
    await indexWithRenditions(database.db, new LocalBlobStore(dir), [
      { filename: 'travel-zh.md', versions: [travel] },
      { filename: 'stanley-cups.csv', versions: [cups] },
      { filename: 'ducks.xlsx', versions: [ducks] },
      { filename: 'nba-champions-zh.csv', versions: [champions] },
    ]);
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

  const answer = async (question: string) =>
    done(await collect(ask(deps, askRequestSchema.parse({ question, mode: 'auto' }))));

  it('leads with the Maple Leafs cups and quotes their row whole, cited', async () => {
    const response = await answer('How many Stanley Cups have the Maple Leafs won?');
    const body = response.answer.split('\n\n').slice(1).join('\n\n');
    expect(body.startsWith('13 [1]')).toBe(true);
    expect(response.answer).toContain('- Team: Toronto Maple Leafs · Stanley Cups: 13 · Last won: 1967 [1]');
    expect(response.sources[0]?.document_name).toBe('stanley-cups.csv');
  });

  it('reads the 2022 freshwater ducks from the .xlsx', async () => {
    const response = await answer('How many freshwater ducks in 2022?');
    expect(response.answer.split('\n\n')[1]).toBe('447 [1]');
    expect(response.answer).toContain('Year: 2022 · Freshwater ducks: 447');
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

  it('says plainly when no calculation fits and quotes the best rows whole', async () => {
    const response = await answer('Have the Maple Leafs won more than 50 Stanley Cups?');
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

  it('answers a superlative with the row it used', async () => {
    const response = await answer('Which team has won the most Stanley Cups?');
    expect(response.answer.split('\n\n')[1]).toBe('Montreal Canadiens [1]');
  });
});

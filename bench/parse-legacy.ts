/**
 * Parse benchmark of the formats read through SheetJS, word-extractor, the .ppt record reader and
 * htmlparser2: whole-tree parsing against each library's own raw text extraction on generated files
 * (the least CPU time of warm runs: on a shared machine wall times swing several-fold with the load,
 * and CPU time only grows with it), and the peak memory of parsing a generated .xls of BENCH_XLS_MB (default 50; written by tests/helpers/xls-writer.ts, as Excel writes cells)
 * in a child process (BENCH_XLS_MB=0 leaves it out). .ppt has no library to compare with (its reader is ours), so it gets its time only.
 * The larger .doc files are the generated Word reports converted by LibreOffice (`soffice`, a
 * fixture tool only) into a temporary folder; without it their rows say so.
 * `node bin/run-ts.js bench/parse-legacy.ts` prints the table.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DomUtils, parseDocument as parseDom } from 'htmlparser2';
import WordExtractor from 'word-extractor';
import { detectFileType } from '#shared/parse/detect.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { XLSX } from '#shared/parse/sheets/sheetjs.ts';
import { writeXls, type XlsValue } from '../tests/helpers/xls-writer.ts';
import { type BenchRow, formatTable } from './parse.ts';
import { generateDocx, generateXlsx } from './parse-fixtures.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const RUNS = 7;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The CPU time of one run (the process's, helper threads included, as for the library's run). */
async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const started = cpuMs();
  await run();
  return cpuMs() - started;
}

function least(values: number[]): number {
  return Math.min(...values);
}

const ours = (bytes: Uint8Array, filename: string) => () =>
  parseDocument({ bytes, filename, limits: DEFAULT_PARSE_LIMITS }, detectFileType(bytes, filename));

/** SheetJS reading every cell's text, as the parser's reader does (a CSV from its decoded text). */
function sheetjsRaw(bytes: Uint8Array, csv = false): number {
  const book = csv
    ? XLSX.read(new TextDecoder().decode(bytes), { type: 'string', raw: true, dense: true })
    : XLSX.read(bytes, { type: 'array', dense: true, cellNF: true });
  let chars = 0;
  for (const name of book.SheetNames) {
    for (const row of (book.Sheets[name]?.['!data'] ?? []) as ({ w?: string; v?: unknown }[] | undefined)[]) {
      for (const cell of row ?? []) chars += String(cell?.w ?? cell?.v ?? '').length;
    }
  }
  return chars;
}

/** `run` done `times` times in a row (a run of a millisecond or less is timed as a batch). */
const batch = (run: () => Promise<unknown> | unknown, times: number) => async (): Promise<void> => {
  for (let i = 0; i < times; i++) await run();
};

/** Our whole parse against the library's raw extraction, interleaved; `repeat` times each timed run. */
async function compare(
  label: string,
  bytes: Uint8Array,
  filename: string,
  raw?: () => unknown,
  repeat = 1,
): Promise<BenchRow> {
  const parse = batch(ours(bytes, filename), repeat);
  const library = raw ? batch(raw, repeat) : undefined;
  await parse();
  await library?.();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push((await timed(parse)) / repeat);
    if (library) b.push((await timed(library)) / repeat);
  }
  const oursMs = least(a);
  const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
  process.stderr.write(`${label}: ours ${ms(oursMs)} ms, raw ${b.length ? ms(least(b)) : '-'} ms\n`);
  if (!raw)
    return { metric: `parse ${label}`, value: `${ms(oursMs)} ms (no library to compare)`, target: '' };
  const rawMs = least(b);
  return {
    metric: `parse ${label}`,
    value: `${ms(oursMs)} ms vs raw ${ms(rawMs)} ms = ${(oursMs / rawMs).toFixed(2)}x`,
    target: '<= 1.5x raw',
  };
}

function largeHtml(sections: number): Uint8Array {
  const parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><title>Bench</title></head><body>'];
  for (let i = 0; i < sections; i++) {
    parts.push(`<h2>Section ${i}</h2><p>Paragraph ${i} about budgets, travel and the Lisbon office.</p>`);
    parts.push(
      `<ul><li>item ${i}a</li><li>item ${i}b</li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>${i}</td><td>x</td></tr></table>`,
    );
  }
  return new TextEncoder().encode(`${parts.join('')}</body></html>`);
}

/** Rows a generated .xls holds per sheet (BIFF8 sheets stop at 65,536). */
const XLS_SHEET_ROWS = 60_000;

/** Rows of six typed columns: an id, two repeated codes, an amount, a date and a note of its own. */
function* xlsBenchRows(from: number, to: number): Iterable<XlsValue[]> {
  yield ['Id', 'Code', 'Region', 'Amount', 'Day', 'Note'];
  for (let i = from; i < to; i++) {
    yield [
      i,
      `c${i % 9973}`,
      `r${i % 7}`,
      ((i * 37) % 100000) / 100,
      { date: 45000 + (i % 365) },
      `note ${i} on the Lisbon budget`,
    ];
  }
}

/** ~120 bytes a row in BIFF8 (measured on this generator): six cell records and a shared string. */
const XLS_ROW_BYTES = 120;

/**
 * A long article as a site serves it: head with styles and scripts, header and navigation, then
 * nested divs of sections whose paragraphs carry links, emphasis and code, lists, figures and tables.
 */
function articleHtml(sections: number): Uint8Array {
  const parts = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Travel handbook</title>',
    '<link rel="stylesheet" href="/site.css"><style>.note{color:#333}</style><script>window.dataLayer=[];</script></head>',
    '<body class="docs"><header class="site"><nav aria-label="Main"><ul><li><a href="/">Home</a></li><li><a href="/docs">Docs</a></li></ul></nav></header>',
    '<div class="layout"><aside class="toc"><a href="#s0">Contents</a></aside><main id="content"><article>',
  ];
  for (let i = 0; i < sections; i++) {
    parts.push(
      `<section id="s${i}"><h2 class="title"><a class="anchor" href="#s${i}">Section ${i}</a></h2>`,
      `<div class="body"><p class="lead">Employees book <em>flights</em> through the <a href="/desk" title="desk">travel desk</a> at least <strong>14 days</strong> ahead; rule <code>T-${i}</code> applies.</p>`,
      `<p>Receipts are filed within 30 days of the trip, <span class="note">scanned or photographed</span>, with the <a href="/form">expense form</a>.</p>`,
      `<ul class="list"><li><span>Lisbon</span>: 180 euros</li><li><span>Madrid</span>: 160 euros</li><li><span>Porto</span>: 140 euros</li></ul>`,
      `<figure><img src="img/chart${i}.png" alt="Chart ${i}" width="400"><figcaption>Spending in quarter ${i % 4}</figcaption></figure>`,
      `<table class="data"><thead><tr><th>City</th><th>Limit</th></tr></thead><tbody><tr><td>Lisbon</td><td>${180 + i}</td></tr><tr><td>Madrid</td><td>160</td></tr></tbody></table></div></section>`,
    );
  }
  parts.push(
    '</article></main></div><footer><p>Copyright Example</p><script>track();</script></footer></body></html>',
  );
  return new TextEncoder().encode(parts.join('\n'));
}

/** The generated Word report of `sections` sections saved as .doc by LibreOffice, or undefined without it. */
async function generatedDoc(dir: string, sections: number): Promise<Uint8Array | undefined> {
  const docx = join(dir, `report-${sections}.docx`);
  writeFileSync(docx, await generateDocx(sections));
  try {
    await promisify(execFile)(
      'soffice',
      [
        '--headless',
        `-env:UserInstallation=file://${join(dir, 'lo-profile')}`,
        '--convert-to',
        'doc',
        '--outdir',
        dir,
        docx,
      ],
      { timeout: 300_000 },
    );
    return new Uint8Array(readFileSync(join(dir, `report-${sections}.doc`)));
  } catch {
    return undefined;
  }
}

/** The .doc rows: the small fixture, then generated reports of growing size. */
async function docRows(rows: BenchRow[]): Promise<void> {
  const wordRaw = (bytes: Uint8Array) => async () =>
    (await new WordExtractor().extract(Buffer.from(bytes))).getBody();
  const fixture = new Uint8Array(readFileSync(join(REPO, 'tests/fixtures/legacy/handbook.doc')));
  rows.push(
    await compare('tests/fixtures/legacy/handbook.doc', fixture, 'handbook.doc', wordRaw(fixture), 50),
  );
  const dir = mkdtempSync(join(tmpdir(), 'dropqa-doc-bench-'));
  try {
    for (const [sections, repeat] of [
      [20, 10],
      [200, 1],
    ] as const) {
      const doc = await generatedDoc(dir, sections);
      const label = `generated .doc (${sections} sections${doc ? `, ${(doc.length / 1024).toFixed(0)} KB` : ''})`;
      if (doc) rows.push(await compare(label, doc, 'report.doc', wordRaw(doc), repeat));
      else
        rows.push({
          metric: `parse ${label}`,
          value: 'skipped: LibreOffice (soffice) is not installed',
          target: '',
        });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function largeXlsPeak(rows: BenchRow[]): Promise<void> {
  const targetMb = Number(process.env.BENCH_XLS_MB ?? 50);
  if (targetMb <= 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'dropqa-xls-bench-'));
  try {
    const count = Math.ceil((targetMb * 2 ** 20) / XLS_ROW_BYTES);
    const sheets = [];
    for (let start = 0, n = 1; start < count; start += XLS_SHEET_ROWS, n++) {
      sheets.push({ name: `Data${n}`, rows: xlsBenchRows(start, Math.min(count, start + XLS_SHEET_ROWS)) });
    }
    const path = join(dir, 'large.xls');
    writeFileSync(path, writeXls(sheets));
    const size = statSync(path).size;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(REPO, 'bin/run-ts.js'),
        join(REPO, 'bench/parse-rss.ts'),
        path,
        String(count + 10 * sheets.length),
      ],
      { cwd: REPO, maxBuffer: 1 << 20 },
    );
    const measured = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { ms: number; peakRssMb: number };
    rows.push({
      metric: `peak RSS parsing a generated ${(size / 2 ** 20).toFixed(0)} MB .xls (${count.toLocaleString('en-US')} rows, ${sheets.length} sheets)`,
      value: `${measured.peakRssMb.toFixed(0)} MB, ${(measured.ms / 1000).toFixed(1)} s`,
      target: '< 1024 MB',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the benchmark and returns its rows. */
export async function benchParseLegacy(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const xlsx = await generateXlsx(20_000);
  const book = XLSX.read(xlsx, { type: 'array', cellNF: true });
  const xls = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
  const ods = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'ods' }) as ArrayBuffer);
  const csv = new TextEncoder().encode(
    XLSX.utils.sheet_to_csv(book.Sheets[book.SheetNames[0] ?? ''] as never),
  );
  rows.push(await compare('generated .xls (20,000 rows x 6)', xls, 'orders.xls', () => sheetjsRaw(xls)));
  rows.push(await compare('generated .ods (20,000 rows x 6)', ods, 'orders.ods', () => sheetjsRaw(ods)));
  rows.push(
    await compare('generated .csv (20,000 rows x 6)', csv, 'orders.csv', () => sheetjsRaw(csv, true)),
  );
  await docRows(rows);
  const fixtures = join(REPO, 'tests/fixtures/legacy');
  const ppt = new Uint8Array(readFileSync(join(fixtures, 'review.ppt')));
  rows.push(await compare('tests/fixtures/legacy/review.ppt', ppt, 'review.ppt'));
  const htmlRaw = (bytes: Uint8Array) => () =>
    DomUtils.textContent(parseDom(new TextDecoder().decode(bytes)));
  const html = largeHtml(2_000);
  rows.push(
    await compare(
      `generated .html (2,000 sections, ${(html.length / 1024).toFixed(0)} KB)`,
      html,
      'page.html',
      htmlRaw(html),
    ),
  );
  const article = articleHtml(1_000);
  rows.push(
    await compare(
      `generated article .html (1,000 sections with inline markup, ${(article.length / 1024).toFixed(0)} KB)`,
      article,
      'article.html',
      htmlRaw(article),
    ),
  );
  await largeXlsPeak(rows);
  return rows;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(formatTable(await benchParseLegacy()));
  process.exit(0);
}

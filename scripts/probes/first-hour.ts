/**
 * The "first hour" walk-through (issue 30): what a new user sees offline on 25 real files, with the
 * embedded default configuration (no config file, no model keys, no network). Ingests the files
 * below into a fresh temporary data folder in-process (the runtime and ingest service the CLI's
 * in-process backend uses), then prints per file its status, failure reason and warnings; per
 * question the answer's first 300 characters, its sources (document > section) and a verdict:
 * right (a known answer string in the first 300 characters), partly (later in the answer) or wrong
 * (absent); and the topic names, so topics made of format words or OCR fragments show.
 *
 * Run once (it parses, OCRs and embeds ~25 files; a minute or two of CPU):
 *   node bin/run-ts.js scripts/probes/first-hour.ts [--keep]
 * `--keep` leaves the data folder for `DROPQA_DATA_DIR=<folder> npx dropqa …`. Results: docs/first-hour.md.
 *
 * The files are read where they lie (nothing copied into the repository). Paths are relative to the
 * repository root; `../shared/` is the shared folder beside the checkout. Sources:
 * - `../shared/corpus/<project>/…`: other projects' test files (see ../shared/corpus/README.md):
 *   microsoft/markitdown (MIT), harshankur/officeParser (MIT), mwilliamson/mammoth.js (BSD-2-Clause),
 *   python-openxml/python-docx (MIT), scanny/python-pptx (MIT), exceljs/exceljs (MIT).
 * - `../shared/eval/tables-en/tables/t0003.csv`: a WikiTableQuestions table (Pasupat and Liang,
 *   2015; CC BY-SA 4.0), the CSV a user would drop in.
 * - `tests/fixtures/legacy/*` and `tests/fixtures/ocr/annual-report-zh.png`: made by this project's
 *   fixture scripts (not third-party); included only because no third-party .rtf/.ppt/.ods or
 *   Chinese file is on disk. No .eml or .msg file exists on disk, so e-mail is not covered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { collectInputs, readInput } from '../../shared/cli/files.ts';
import { loadConfig } from '../../shared/config/load.ts';
import { listVersions } from '../../shared/documents/index.ts';
import { listTopics } from '../../shared/documents/topics.ts';
import type { IngestOutcome } from '../../shared/pipeline/ingest.ts';
import { ask } from '../../shared/qa/ask.ts';
import { askRequestSchema } from '../../shared/qa/request.ts';
import type { QaResponse } from '../../shared/qa/response.ts';
import { openRuntime } from '../../shared/runtime/runtime.ts';

const CORPUS = '../shared/corpus';
const MARKITDOWN = `${CORPUS}/markitdown/packages/markitdown/tests/test_files`;
const MARKITDOWN_OCR = `${CORPUS}/markitdown/packages/markitdown-ocr/tests/ocr_test_data`;

/** The walk-through's files: a unique key (two projects both have a test.docx) and the path. */
const FILES: { key: string; path: string }[] = [
  { key: 'markitdown/test.docx', path: `${MARKITDOWN}/test.docx` },
  { key: 'markitdown/test_with_comment.docx', path: `${MARKITDOWN}/test_with_comment.docx` },
  { key: 'markitdown/test.pptx', path: `${MARKITDOWN}/test.pptx` },
  { key: 'markitdown/test.xlsx', path: `${MARKITDOWN}/test.xlsx` },
  { key: 'markitdown/test.xls', path: `${MARKITDOWN}/test.xls` },
  { key: 'markitdown-ocr/docx_image_middle.docx', path: `${MARKITDOWN_OCR}/docx_image_middle.docx` },
  { key: 'markitdown-ocr/pptx_image_start.pptx', path: `${MARKITDOWN_OCR}/pptx_image_start.pptx` },
  { key: 'markitdown-ocr/xlsx_image_end.xlsx', path: `${MARKITDOWN_OCR}/xlsx_image_end.xlsx` },
  { key: 'officeParser/test.odt', path: `${CORPUS}/officeParser/test/files/test.odt` },
  { key: 'officeParser/test.pptx', path: `${CORPUS}/officeParser/test/files/test.pptx` },
  { key: 'officeParser/test.pdf', path: `${CORPUS}/officeParser/test/files/test.pdf` },
  { key: 'mammoth/tables.docx', path: `${CORPUS}/mammoth.js/test/test-data/tables.docx` },
  { key: 'mammoth/footnotes.docx', path: `${CORPUS}/mammoth.js/test/test-data/footnotes.docx` },
  { key: 'mammoth/strict-format.docx', path: `${CORPUS}/mammoth.js/test/test-data/strict-format.docx` },
  { key: 'python-docx/test.docx', path: `${CORPUS}/python-docx/tests/test_files/test.docx` },
  {
    key: 'python-pptx/prs-notes.pptx',
    path: `${CORPUS}/python-pptx/features/steps/test_files/prs-notes.pptx`,
  },
  { key: 'exceljs/gold.xlsx', path: `${CORPUS}/exceljs/spec/integration/data/gold.xlsx` },
  {
    key: 'exceljs/KRISHNAPATNAM_LINE_UP.xlsx',
    path: `${CORPUS}/exceljs/spec/integration/data/1519293514-KRISHNAPATNAM_LINE_UP.xlsx`,
  },
  { key: 'exceljs/missing-bits.xlsx', path: `${CORPUS}/exceljs/spec/integration/data/missing-bits.xlsx` },
  { key: 'exceljs/chart-sheet.xlsx', path: `${CORPUS}/exceljs/spec/integration/data/chart-sheet.xlsx` },
  { key: 'wikitablequestions/t0003.csv', path: '../shared/eval/tables-en/tables/t0003.csv' },
  { key: 'legacy/handbook.rtf', path: 'tests/fixtures/legacy/handbook.rtf' },
  { key: 'legacy/review.ppt', path: 'tests/fixtures/legacy/review.ppt' },
  { key: 'legacy/budget.ods', path: 'tests/fixtures/legacy/budget.ods' },
  { key: 'ocr/annual-report-zh.png', path: 'tests/fixtures/ocr/annual-report-zh.png' },
];

/** Questions answered by the files' own text (read with `dropqa tree <file>`); `known` lists accepted answers. */
const QUESTIONS: { question: string; known: string[]; from: string }[] = [
  {
    question: 'What is AutoGen?',
    known: ['open-source framework'],
    from: 'markitdown/test.docx (Abstract)',
  },
  {
    question: 'What test comment was left in the AutoGen paper?',
    known: ['This is a test comment'],
    from: 'markitdown/test_with_comment.docx (a comment on the Abstract)',
  },
  {
    question: 'How many pairs of scissors are needed?',
    known: ['1 pair', 'one pair'],
    from: 'officeParser/test.odt, .pptx, .pdf (Tables: ITEM / NEEDED)',
  },
  {
    question: 'Which font family is embedded in the calibre DOCX demo?',
    known: ['Ubuntu'],
    from: 'officeParser/test.odt (Fun with fonts)',
  },
  {
    question: 'What cargo is MV. BULK POLARIS carrying at Krishnapatnam?',
    known: ['LIME STONE', 'limestone'],
    from: 'exceljs/KRISHNAPATNAM_LINE_UP.xlsx (berth B4)',
  },
  {
    question: "Who was the opponent's head coach when Charleston Southern played the Florida Gators in 2009?",
    known: ['Urban Meyer'],
    from: 'wikitablequestions/t0003.csv (row 2009, Florida Gators)',
  },
  {
    question: 'What walks into a bar?',
    known: ['tachyon'],
    from: 'mammoth/footnotes.docx (footnote 1)',
  },
  {
    question: 'What is the nightly hotel limit in Lisbon?',
    known: ['180'],
    from: 'legacy/handbook.rtf (Travel policy > Hotels)',
  },
  {
    question: '下一步要招聘什么人？',
    known: ['数据工程师'],
    from: 'legacy/review.ppt (slide 下一步)',
  },
  {
    question: 'How much is budgeted for training?',
    known: ['42000', '42,000', '42 000'],
    from: 'legacy/budget.ods (Budget sheet)',
  },
];

/** The version statistics worth a reader's eye (the rest are developer counters). */
const SHOWN_STATS = ['sections', 'paragraphs', 'tables', 'images', 'topics'];
const keep = process.argv.includes('--keep');
const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-first-hour-'));
// The embedded default: no config file and no environment but the data folder (so no model keys).
const config = loadConfig({ file: false, env: { DROPQA_DATA_DIR: dataDir } });
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const cell = (text: string) => oneLine(text).replaceAll('|', '\\|');

/** right / partly / wrong by where a known answer first appears in the answer (case-insensitive). */
function verdict(answer: string, known: string[]): 'right' | 'partly' | 'wrong' {
  const lower = oneLine(answer).toLowerCase();
  const at = known.map((k) => lower.indexOf(k.toLowerCase())).filter((i) => i >= 0);
  if (at.length === 0) return 'wrong';
  return Math.min(...at) < 300 ? 'right' : 'partly';
}

const rt = await openRuntime(config);
try {
  const started = Date.now();
  const inputs = FILES.map((file) => {
    const found = collectInputs([file.path]);
    return { ...file, found };
  });
  const documents = inputs.flatMap(({ key, found }) =>
    found.documents.map((d) => ({ key: `uploads/${key}`, filename: d.filename, bytes: readInput(d) })),
  );
  const outcomes: IngestOutcome[] = await rt.ingest.ingest(documents);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);

  console.log(`## Files (${FILES.length}; ingested in ${seconds} s into ${dataDir})\n`);
  console.log('| file | status | failure reason / warnings |');
  console.log('| --- | --- | --- |');
  for (const { key, found } of inputs) {
    for (const file of found.unsupported) console.log(`| ${key} | not read | ${cell(file.reason)} |`);
  }
  for (const outcome of outcomes) {
    const key = outcome.key.replace(/^uploads\//, '');
    let notes = outcome.error ?? '';
    if (outcome.documentId && outcome.status !== 'failed') {
      const [latest] = await listVersions(rt.db, ALL_COLLECTIONS, outcome.documentId);
      const counts = latest?.stats ?? {};
      const stats = SHOWN_STATS.filter((name) => name in counts)
        .map((name) => `${name} ${counts[name]}`)
        .join(', ');
      notes = [stats, ...(latest?.warnings ?? [])].filter(Boolean).join('; ');
    }
    console.log(`| ${key} | ${outcome.status} | ${cell(notes)} |`);
  }

  console.log('\n## Questions\n');
  const tally = { right: 0, partly: 0, wrong: 0 };
  for (const [i, q] of QUESTIONS.entries()) {
    let response: QaResponse | undefined;
    let failure = '';
    for await (const event of ask(rt.qa, askRequestSchema.parse({ question: q.question }))) {
      if (event.type === 'done') response = event.data.response;
      if (event.type === 'error') failure = `${event.data.code}: ${event.data.message}`;
    }
    const answer = response?.answer ?? failure;
    const result = verdict(answer, q.known);
    tally[result] += 1;
    console.log(`### ${i + 1}. ${q.question} — **${result}**\n`);
    console.log(`- known answer: ${q.known.map((k) => `"${k}"`).join(' / ')} (from ${q.from})`);
    console.log(
      `- answer (${answer.length} chars, confidence ${response?.confidence ?? '-'}, ${response?.mode ?? '-'}): ` +
        `${oneLine(answer.slice(0, 300))}${answer.length > 300 ? ' …' : ''}`,
    );
    for (const s of response?.sources ?? []) {
      const flag = s.verified === false ? ' [quote not found]' : s.verified ? ' [verified]' : '';
      console.log(`  - [${s.citation}] ${s.document_name} > ${s.section || '(top)'}${flag}`);
    }
    console.log('');
  }
  console.log(`Questions: ${tally.right} right, ${tally.partly} partly, ${tally.wrong} wrong\n`);

  const topics = await listTopics(rt.db, ALL_COLLECTIONS, { limit: 500, offset: 0 });
  console.log(`## Topics (${topics.total})\n`);
  console.log(topics.items.map((t) => `${t.name} (${t.documentCount})`).join(', '));
} finally {
  await rt.close();
  if (!keep) rmSync(dataDir, { recursive: true, force: true });
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { normalizeTree } from '#shared/enrich/structure/normalize.ts';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { createProviders } from '#shared/llm/providers.ts';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseLimitsOf } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { normalizeOptionsOf } from '#shared/parse/structure/options.ts';

/**
 * Every file of the shared corpus (real Office files written by others, some hostile on purpose)
 * goes through detection, parsing and normalization as the Parse step runs them, with the default
 * configuration (its limits, the offline providers).
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CORPUS = resolve(process.env.DROPQA_CORPUS_DIR ?? resolve(REPO, '../shared/corpus'));
const PER_FILE_MS = 30_000;
const CONFIG = parseConfig({});
const LIMITS = parseLimitsOf(CONFIG);
const PROVIDERS = createProviders(CONFIG);
const NORMALIZE = normalizeOptionsOf(CONFIG);
/** Files known to be ordinary, well-formed documents: these must parse into a non-empty tree. */
const MUST_PARSE = [
  'mammoth.js/test/test-data/single-paragraph.docx',
  'mammoth.js/test/test-data/tables.docx',
  'mammoth.js/test/test-data/footnotes.docx',
  'officeParser/test/files/test.docx',
  'officeParser/test/files/test.xlsx',
  'markitdown/packages/markitdown/tests/test_files/test.xlsx',
  'markitdown/packages/markitdown/tests/test_files/test.xls',
  'exceljs/spec/integration/data/gold.xlsx',
];

interface Outcome {
  file: string;
  type: string;
  result: 'parsed' | 'empty' | 'failed';
  ms: number;
  detail: string;
}

function corpusFiles(): string[] {
  if (!statSync(CORPUS, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`corpus folder ${CORPUS} is missing (set DROPQA_CORPUS_DIR to where it is)`);
  }
  return readdirSync(CORPUS, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(CORPUS, join(entry.parentPath, entry.name)))
    .sort();
}

function extension(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(dot + 1).toLowerCase() : '(none)';
}

async function run(file: string): Promise<{ outcome: Outcome; problem?: string }> {
  const filename = file.split('/').pop() ?? file;
  const bytes = new Uint8Array(readFileSync(join(CORPUS, file)));
  const started = performance.now();
  let type = extension(file);
  try {
    const detected = detectFileType(bytes, filename);
    type = detected;
    const parsed = await parseDocument({ bytes, filename, limits: LIMITS }, detected);
    const doc = await normalizeTree(parsed, PROVIDERS, NORMALIZE);
    const ms = performance.now() - started;
    const empty = doc.children.length === 0 && doc.images.length === 0;
    const outcome: Outcome = {
      file,
      type,
      result: empty ? 'empty' : 'parsed',
      ms,
      detail: `${doc.children.length} top nodes, ${doc.images.length} images, ${doc.warnings.length} warnings`,
    };
    if (!doc.title.trim()) return { outcome, problem: `${file}: parsed without a title` };
    if (empty && !doc.warnings.some((w) => w.includes('empty document'))) {
      return { outcome, problem: `${file}: an empty tree without a reason` };
    }
    return { outcome };
  } catch (error) {
    const ms = performance.now() - started;
    const message = error instanceof Error ? error.message : String(error);
    const outcome: Outcome = { file, type, result: 'failed', ms, detail: message };
    if (!(error instanceof UnsupportedDocumentError)) {
      return { outcome, problem: `${file}: crashed with ${String(error)}` };
    }
    // A reason names the file and says something about it beyond the name.
    if (!message.includes(filename)) {
      return { outcome, problem: `${file}: the reason does not name the file: ${message}` };
    }
    if (message.replace(filename, '').trim().length < 10) {
      return { outcome, problem: `${file}: no reason given: ${message}` };
    }
    return { outcome };
  }
}

function printTable(outcomes: Outcome[], totalMs: number): void {
  const byType = new Map<string, Record<Outcome['result'], number>>();
  for (const o of outcomes) {
    const counts = byType.get(o.type) ?? { parsed: 0, empty: 0, failed: 0 };
    counts[o.result]++;
    byType.set(o.type, counts);
  }
  const lines = ['| type | parsed | empty | failed with a reason |', '|---|---|---|---|'];
  for (const [type, c] of [...byType].sort())
    lines.push(`| ${type} | ${c.parsed} | ${c.empty} | ${c.failed} |`);
  lines.push('', `${outcomes.length} files in ${(totalMs / 1000).toFixed(1)} s; slowest:`);
  for (const o of [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 8)) {
    lines.push(`  ${o.ms.toFixed(0).padStart(6)} ms  ${o.result.padEnd(6)}  ${o.file}`);
  }
  lines.push('', 'failures:');
  for (const o of outcomes.filter((x) => x.result === 'failed')) lines.push(`  ${o.file}: ${o.detail}`);
  console.log(lines.join('\n'));
}

describe('the shared corpus through detection, parsing and normalization', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('parses and normalizes each file or fails it with a reason naming it, within 30 s each, with no crash', async () => {
    const files = corpusFiles();
    expect(files.length).toBeGreaterThan(150);
    const outcomes: Outcome[] = [];
    const problems: string[] = [];
    const started = performance.now();
    for (const file of files) {
      const { outcome, problem } = await run(file);
      outcomes.push(outcome);
      if (problem) problems.push(problem);
      if (outcome.ms > PER_FILE_MS) problems.push(`${file}: took ${Math.round(outcome.ms)} ms`);
    }
    // Late failures of timed-out parsers would surface here.
    await new Promise((resolve) => setTimeout(resolve, 50));
    printTable(outcomes, performance.now() - started);
    expect(problems).toEqual([]);
    expect(unhandled).toEqual([]);
    const mustParse = outcomes.filter((o) => MUST_PARSE.includes(o.file));
    expect(mustParse.map((o) => [o.file, o.result])).toEqual(
      [...MUST_PARSE].sort().map((file) => [file, 'parsed']),
    );
    // The hostile archives of officeParser's test data fail on their own limits.
    const bombs = outcomes.filter((o) => /(oversized|large_size)_archive\.docx$/.test(o.file));
    expect(bombs.map((o) => o.detail)).toEqual([
      expect.stringMatching(/zip bomb/),
      expect.stringMatching(/zip bomb/),
    ]);
  }, 240_000);
});

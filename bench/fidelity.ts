/**
 * Parse fidelity against another parser's reading of the same files: for every .docx, .odt and .html
 * of the shared corpus (`../shared/corpus`, or DROPQA_CORPUS_DIR) and the test fixtures, pandoc's JSON
 * AST gives the reference headings (in order) and words; for every .pptx and .ppt (the fixtures' and
 * LibreOffice's .ppt copies of the corpus's decks), LibreOffice's OpenDocument conversion gives the
 * slide titles and slide text (`libreoffice-outline.ts`, since pandoc reads no decks); for every
 * .xlsx, LibreOffice's .ods gives the sheet names and cell values; for LibreOffice's .doc copies of
 * the corpus's .docx, pandoc reads LibreOffice's .odt of each .doc. DropQA's tree gives its section
 * titles and text. Heading recall: the longest common subsequence of the two heading lists, leading
 * numbers left out (pandoc shows no list numbers), over the reference's count (files with at least
 * one reference heading); word recall: the multiset overlap of words over the reference's count
 * (all files, pooled). pandoc (Debian `apt-get install pandoc`) and LibreOffice are bench tools only,
 * never runtime needs; files they cannot read are left out and counted. A second table measures what
 * is inside Office files per kind (charts, numbered headings, equations, text in shapes, comments and
 * notes, checkboxes and first-page headers) on `tests/fixtures/office-kinds`, against the headings and
 * text the Office programs show (`reference.json`, written with the files by its `generate.ts`), with
 * the parse time over mammoth's raw text extraction of the same .docx files. `node bin/run-ts.js
 * bench/fidelity.ts [--worst | --all] [--kinds]` prints the tables (and the worst files, or every file;
 * `--kinds` the per-kind table only, which needs neither pandoc nor LibreOffice).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import mammoth from 'mammoth';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { TreeNode } from '#shared/parse/types.ts';
import { generatedDocuments } from './generated-documents.ts';
import { convertWithLibreOffice } from './libreoffice.ts';
import { readDeckOutline, readSheetOutline } from './libreoffice-outline.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const CORPUS = resolve(process.env.DROPQA_CORPUS_DIR ?? resolve(REPO, '../shared/corpus'));
const FORMATS: Record<string, string> = {
  '.docx': 'docx',
  '.doc': 'doc',
  '.odt': 'odt',
  '.html': 'html',
  '.htm': 'html',
  '.pptx': 'pptx',
  '.ppt': 'ppt',
  '.xlsx': 'xlsx',
};
/** officeParser's zip bombs: DropQA refuses them, and LibreOffice is not asked to open them. */
const HOSTILE = /_archive\.docx$/;

interface PandocNode {
  t: string;
  c?: unknown;
}

/** Words: lower-cased Latin runs and digits, each CJK character on its own. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).flatMap((w) =>
    /\p{Script=Han}/u.test(w) ? (w.match(/\p{Script=Han}|[^\p{Script=Han}]+/gu) ?? []) : [w],
  );
}

const heading = (text: string) => words(text).join(' ');
/** A heading without its leading number ("2 1 data" for "2.1 Data"): pandoc shows no list numbers. */
const bare = (headingWords: string) => headingWords.replace(/^(?:\d+ )+/, '');

function inlineText(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node: PandocNode) => {
      if (node.t === 'Str') return String(node.c);
      if (node.t === 'Code' && Array.isArray(node.c)) return String(node.c[1]);
      if (node.t === 'Space' || node.t === 'SoftBreak' || node.t === 'LineBreak') return ' ';
      if (Array.isArray(node.c))
        return node.c.map((part) => inlineText(Array.isArray(part) ? part : [part])).join(' ');
      return '';
    })
    .join('');
}

interface Outline {
  headings: string[];
  words: string[];
}

/** LibreOffice's slide titles (in order) and all its slide words; undefined when it read nothing. */
function deckReference(odp: string | undefined): Outline {
  if (!odp) throw new Error('LibreOffice could not convert the deck');
  const outline = readDeckOutline(odp);
  return {
    headings: outline.headings.map(heading).filter(Boolean),
    words: outline.text.flatMap(words),
  };
}

/** LibreOffice's sheet names (in order) and cell values, from its .ods of a workbook. */
function sheetReference(ods: string | undefined): Outline {
  if (!ods) throw new Error('LibreOffice could not convert the workbook');
  const outline = readSheetOutline(ods);
  return { headings: outline.headings.map(heading).filter(Boolean), words: outline.text.flatMap(words) };
}

/** pandoc's headings (in order) and all its words. */
function pandocReference(path: string, format: string): Outline {
  const json = execFileSync('pandoc', ['-f', format, '-t', 'json', path], {
    maxBuffer: 1 << 28,
    timeout: 60_000,
  });
  const ast = JSON.parse(json.toString()) as { blocks: PandocNode[] };
  const headings: string[] = [];
  const all: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const node = value as PandocNode;
    if (node.t === 'Header' && Array.isArray(node.c)) headings.push(heading(inlineText(node.c[2])));
    if (node.t === 'Str') all.push(...words(String(node.c)));
    if ((node.t === 'Code' || node.t === 'CodeBlock') && Array.isArray(node.c)) {
      all.push(...words(String(node.c[1])));
    }
    if (node.t === 'Image') return; // alt text is not document text
    visit(node.c);
  };
  visit(ast.blocks);
  return { headings: headings.filter(Boolean), words: all };
}

function ourReading(children: TreeNode[]): Outline {
  const headings: string[] = [];
  const all: string[] = [];
  const visit = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (node.type === 'section') {
        headings.push(heading(node.title));
        all.push(...words(node.title));
        visit(node.children);
      } else if (node.type === 'paragraph' || node.type === 'table') all.push(...words(node.text));
    }
  };
  visit(children);
  return { headings: headings.filter(Boolean), words: all };
}

function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1] ?? 0);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

function overlap(reference: string[], ours: string[]): number {
  const counts = new Map<string, number>();
  for (const w of ours) counts.set(w, (counts.get(w) ?? 0) + 1);
  let hit = 0;
  for (const w of reference) {
    const n = counts.get(w) ?? 0;
    if (n > 0) {
      hit++;
      counts.set(w, n - 1);
    }
  }
  return hit;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

interface Tally {
  files: number;
  skipped: number;
  headingFiles: number;
  headingRecall: number;
  referenceWords: number;
  keptWords: number;
  worst: { file: string; heading: number; word: number }[];
}

/** Heading and word recall per format over the corpus and the fixtures. */
export async function benchFidelity(): Promise<Map<string, Tally>> {
  const tallies = new Map<string, Tally>();
  const generated = generatedDocuments(REPO);
  // The password-protected fixtures have no text to compare.
  const fixtures = filesUnder(join(REPO, 'tests/fixtures')).filter((path) => !path.includes('/encrypted/'));
  const corpus = filesUnder(CORPUS);
  // Office 97-2003 files: LibreOffice's .ppt and .doc copies of the corpus's .pptx and .docx (named
  // after them), each read back by LibreOffice for the reference (a .doc through its .odt).
  const copies = new Map<string, string>();
  for (const [from, to] of [
    ['.pptx', 'ppt'],
    ['.docx', 'doc'],
  ] as const) {
    const sources = corpus.filter((path) => path.toLowerCase().endsWith(from) && !HOSTILE.test(path));
    for (const [source, copy] of convertWithLibreOffice(sources, to)) {
      if (copy) copies.set(copy, `${source.replace(`${CORPUS}/`, '')} as .${to}`);
    }
  }
  const files = [...corpus, ...fixtures, ...generated, ...copies.keys()];
  const decks = convertWithLibreOffice(
    files.filter((path) => /\.pptx?$/i.test(path)),
    'odp',
  );
  const sheets = convertWithLibreOffice(
    files.filter((path) => /\.xlsx$/i.test(path)),
    'ods',
  );
  const texts = convertWithLibreOffice(
    files.filter((path) => /\.doc$/i.test(path)),
    'odt',
  );
  for (const path of files) {
    const ext = path.slice(path.lastIndexOf('.')).toLowerCase();
    const format = FORMATS[ext];
    if (!format) continue;
    const key = generated.includes(path)
      ? `${format} (generated)`
      : copies.has(path)
        ? `${format} (LibreOffice copies)`
        : format;
    const tally = tallies.get(key) ?? {
      files: 0,
      skipped: 0,
      headingFiles: 0,
      headingRecall: 0,
      referenceWords: 0,
      keptWords: 0,
      worst: [],
    };
    tallies.set(key, tally);
    let reference: Outline;
    let ours: Outline;
    try {
      reference = decks.has(path)
        ? deckReference(decks.get(path))
        : sheets.has(path)
          ? sheetReference(sheets.get(path))
          : texts.has(path)
            ? pandocReference(texts.get(path) ?? '', 'odt')
            : pandocReference(path, format);
      const bytes = new Uint8Array(readFileSync(path));
      const name = path.slice(path.lastIndexOf('/') + 1);
      ours = ourReading(
        (await parseDocument({ bytes, filename: name }, detectFileType(bytes, name))).children,
      );
    } catch {
      tally.skipped++;
      continue;
    }
    tally.files++;
    const headingRecall = reference.headings.length
      ? lcs(reference.headings.map(bare), ours.headings.map(bare)) / reference.headings.length
      : 1;
    if (reference.headings.length) {
      tally.headingFiles++;
      tally.headingRecall += headingRecall;
    }
    const kept = overlap(reference.words, ours.words);
    tally.referenceWords += reference.words.length;
    tally.keptWords += kept;
    tally.worst.push({
      file:
        copies.get(path) ?? path.replace(`${CORPUS}/`, '').replace(/^.*dropqa-fidelity-generated\/\w+\//, ''),
      heading: headingRecall,
      word: reference.words.length ? kept / reference.words.length : 1,
    });
  }
  return tallies;
}

interface KindReference {
  file: string;
  kind: string;
  headings: string[];
  text: string;
}

/**
 * Heading and word recall per kind of content on the office-kinds fixtures, and the parse time of
 * their .docx files over mammoth's `extractRawText` (best of five runs each).
 */
export async function benchKinds(): Promise<{ rows: string[]; docxRatio: number }> {
  const dir = join(REPO, 'tests/fixtures/office-kinds');
  const references = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as KindReference[];
  const kinds = new Map<
    string,
    { files: number; headingHits: number; headings: number; kept: number; words: number }
  >();
  let parseMs = 0;
  let rawMs = 0;
  for (const reference of references) {
    const bytes = new Uint8Array(readFileSync(join(dir, reference.file)));
    const type = detectFileType(bytes, reference.file);
    const ours = ourReading((await parseDocument({ bytes, filename: reference.file }, type)).children);
    const tally = kinds.get(reference.kind) ?? { files: 0, headingHits: 0, headings: 0, kept: 0, words: 0 };
    kinds.set(reference.kind, tally);
    const headings = reference.headings.map(heading);
    const referenceWords = words(reference.text);
    tally.files++;
    tally.headings += headings.length;
    tally.headingHits += lcs(headings, ours.headings);
    tally.words += referenceWords.length;
    tally.kept += overlap(referenceWords, ours.words);
    if (type === 'docx') {
      const best = async (run: () => Promise<unknown>) => {
        let fastest = Infinity;
        for (let i = 0; i < 5; i++) {
          const started = performance.now();
          await run();
          fastest = Math.min(fastest, performance.now() - started);
        }
        return fastest;
      };
      parseMs += await best(() => parseDocument({ bytes, filename: reference.file }, type));
      rawMs += await best(() => mammoth.extractRawText({ buffer: Buffer.from(bytes) }));
    }
  }
  const rows = [
    '| kind | files | heading recall (headings) | word recall (words) |',
    '|---|---|---|---|',
    ...[...kinds].map(
      ([kind, t]) =>
        `| ${kind} | ${t.files} | ${t.headings ? (t.headingHits / t.headings).toFixed(3) : 'n/a'} (${t.headings}) | ${(t.kept / t.words).toFixed(3)} (${t.words}) |`,
    ),
  ];
  return { rows, docxRatio: parseMs / rawMs };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const kinds = await benchKinds();
  console.log(kinds.rows.join('\n'));
  console.log(`\n.docx parse time / mammoth raw text: ${kinds.docxRatio.toFixed(2)}\n`);
  if (process.argv.includes('--kinds')) process.exit(0);
  const tallies = await benchFidelity();
  const lines = [
    '| format | files (failed either side) | heading recall (files with headings) | word recall | target |',
    '|---|---|---|---|---|',
  ];
  for (const [format, t] of tallies) {
    const heading = t.headingFiles ? (t.headingRecall / t.headingFiles).toFixed(3) : 'n/a';
    const word = t.referenceWords ? (t.keptWords / t.referenceWords).toFixed(3) : 'n/a';
    lines.push(
      `| ${format} | ${t.files} (${t.skipped}) | ${heading} (${t.headingFiles}) | ${word} | >= 0.9 / >= 0.95 |`,
    );
  }
  console.log(lines.join('\n'));
  const shown = process.argv.includes('--all') ? Infinity : process.argv.includes('--worst') ? 8 : 0;
  if (shown) {
    for (const [format, t] of tallies) {
      for (const w of [...t.worst]
        .sort((a, b) => a.heading + a.word - (b.heading + b.word))
        .slice(0, shown)) {
        console.log(`${format}\t${w.heading.toFixed(2)}\t${w.word.toFixed(2)}\t${w.file}`);
      }
    }
  }
  process.exit(0);
}

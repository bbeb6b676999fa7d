import { cutWords, hasCjk } from '#shared/text/segment.ts';
import { cellNumber, isNumericColumn, type Table } from './table.ts';

/** Words that never pick a row or a column on their own. */
const STOP = new Set(
  (
    'a an the of in on at to for from by with and or is are was were be been being has have had do does did ' +
    'what which who whom whose when where how many much number total amount list name names tell me give ' +
    'that this these those it its their there than then as into after before over under only other ' +
    'any all each every most least more less same also not no s one ones times time did get got'
  ).split(' '),
);

/**
 * Lower-cased words of a text (letters and digits; a decimal or a thousands-separated number whole;
 * a CJK run cut into words by `cut`, jieba by default, so "湖人队" in a cell and in a question are
 * the same words).
 */
export function words(text: string, cut: (cjk: string) => string[] = cutWords): string[] {
  const runs =
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/(\d),(\d{3})/g, '$1$2')
      .match(/\d+(?:\.\d+)?|[\p{L}\p{N}]+/gu) ?? [];
  if (!hasCjk(text)) return runs;
  return runs.flatMap((run) =>
    hasCjk(run)
      ? (run.match(SCRIPT_RUNS) ?? []).flatMap((part) => (hasCjk(part) ? cut(part) : [part]))
      : [run],
  );
}

/** A run of letters split where CJK meets Latin ("fy2022年" → "fy2022", "年"). */
const SCRIPT_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Chinese question words read as the English ones the planner knows ("多少" → "how many", "最多" →
 * "most"): one planner for both languages.
 */
const CUES: Record<string, string[]> = {
  多少: ['how', 'many'],
  几: ['how', 'many'],
  几个: ['how', 'many'],
  多少次: ['how', 'many'],
  多少个: ['how', 'many'],
  谁: ['who'],
  哪个: ['which'],
  哪些: ['which'],
  哪: ['which'],
  哪一年: ['when'],
  哪年: ['when'],
  何时: ['when'],
  什么: ['what'],
  哪里: ['where'],
  最多: ['most'],
  最高: ['highest'],
  最大: ['largest'],
  最长: ['longest'],
  最少: ['least'],
  最低: ['lowest'],
  最小: ['smallest'],
  最短: ['shortest'],
  第一: ['first'],
  第一个: ['first'],
  最早: ['earliest'],
  最后: ['last'],
  最后一个: ['last'],
  最晚: ['latest'],
  最近: ['latest'],
  总共: ['total'],
  一共: ['total'],
  合计: ['total'],
  总计: ['total'],
  总和: ['total'],
  平均: ['average'],
  相差: ['difference'],
  差: ['difference'],
  不是: ['not'],
  不: ['not'],
  除了: ['except'],
  之前: ['before'],
  之后: ['after'],
  超过: ['more', 'than'],
  多于: ['more', 'than'],
  大于: ['more', 'than'],
  高于: ['more', 'than'],
  少于: ['less', 'than'],
  小于: ['less', 'than'],
  低于: ['less', 'than'],
  或: ['or'],
  还是: ['or'],
  和: ['and'],
  的: ['of'],
  是: ['is'],
  有: ['has'],
  在: ['in'],
  了: ['did'],
};

/** Words a question's CJK run is cut by. */
type Vocabulary = { has(word: string): boolean };

/** "几支", "多少个", "多少次": how many, whatever the measure word. */
const HOW_MANY_ZH = /^(?:几|多少)[个支位次只名家座本场年人项件条届枚块辆]?$/u;

/** Longest word (in characters) a question's CJK run is matched against the table's words by. */
const MAX_CJK_WORD = 8;

/**
 * A question's CJK run cut by the table's own words first (longest match, so "淡水鸭有多少只" meets the
 * cell words "淡水鸭" and the cue "多少"), the stretches between them by jieba: jieba alone cuts a
 * question and a cell differently ("鸭有") when their neighbours differ.
 */
function cutByVocabulary(run: string, vocabulary: Vocabulary): string[] {
  const out: string[] = [];
  let pending = '';
  let i = 0;
  while (i < run.length) {
    let length = Math.min(MAX_CJK_WORD, run.length - i);
    while (length >= 2 && !vocabulary.has(run.slice(i, i + length)) && !(run.slice(i, i + length) in CUES))
      length -= 1;
    if (length < 2) {
      pending += run[i];
      i += 1;
      continue;
    }
    if (pending) out.push(...cutWords(pending));
    pending = '';
    out.push(run.slice(i, i + length));
    i += length;
  }
  if (pending) out.push(...cutWords(pending));
  return out;
}

/**
 * A question's words (`words`; a CJK run cut by `vocabulary`, the table's words, where given),
 * Chinese question words read as English ones (`CUES`).
 */
export function questionWords(question: string, vocabulary: Vocabulary = new Set()): string[] {
  return words(question, (run) => cutByVocabulary(run, vocabulary)).flatMap(
    (w) => CUES[w] ?? (HOW_MANY_ZH.test(w) ? ['how', 'many'] : [w]),
  );
}

/** Whether a word is a function or question word, or one as generic as "total" or "number": it never picks a row or a column on its own. */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/** The question's words that may pick a row: its words without the function and question words. */
export function contentWords(question: string): string[] {
  return questionWords(question).filter((w) => !STOP.has(w));
}

/** A light stem: plural and possessive endings off ("medals" → "medal", "countries" → "country"). */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && /[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A condition the question puts on rows: a column's cells holding a phrase of the question. */
export interface Condition {
  column: number;
  /** The question's words it matched, in order. */
  phrase: string[];
  /** Question word positions it took. */
  at: number[];
  /** Whether some cell equals the phrase (rather than containing it). */
  exact: boolean;
  /** "not charter", "other than Townsville": rows whose cell does not hold the phrase. */
  negated?: boolean;
}

const NEGATIONS = new Set([
  'not',
  'non',
  'except',
  'excluding',
  'besides',
  'without',
  'isn',
  'aren',
  'wasn',
  'weren',
]);

/** Whether the words just before position `at` negate what follows ("not", "other than"). */
function negatedAt(q: readonly string[], at: number): boolean {
  const before = q.slice(Math.max(0, at - 3), at);
  return before.some((w) => NEGATIONS.has(w)) || (before.at(-1) === 'than' && before.at(-2) === 'other');
}

/** What the planner knows of a question over one table. */
export interface QuestionFacts {
  words: string[];
  /** Conditions found, longest phrases first. */
  conditions: Condition[];
  /** Per column: how strongly the question names it by its header words (left after conditions). */
  columnScores: number[];
  numeric: boolean[];
  /** Question word positions taken by column names. */
  headerAt: Set<number>;
}

/** What the planner reads of a table's cells, worked out once per table (`tableWords`). */
export interface TableWords {
  /** Each cell's `words`, by row and column. */
  cells: string[][][];
  /** Per word, the cells holding it (row × width + column), each cell once, in table order. */
  postings: Map<string, number[]>;
  /** Per column: whether it holds numbers (`isNumericColumn`). */
  numeric: boolean[];
  /** Per word stem: the rows holding a word of that stem, in table order. */
  stemRows: Map<string, number[]>;
  /** Per row: the group row above it (`groupRows`), or -1. */
  groups: number[];
}

/**
 * Per row, the group row it stands under, or -1: a group row fills one cell of a table three or
 * more columns wide and the row after it fills two or more ("Undergraduate" and "Graduate" above
 * their colleges' rows); its rows are those down to the next group row.
 */
function groupRows(table: Table): number[] {
  const filled = table.rows.map((row) => row.cells.filter(Boolean).length);
  let group = -1;
  return table.rows.map((_, r) => {
    if (table.columns.length >= 3 && filled[r] === 1 && (filled[r + 1] ?? 0) >= 2) {
      group = r;
      return -1;
    }
    return group;
  });
}

const wordsOfTables = new WeakMap<Table, TableWords>();

/**
 * The words of a table's cells, the cells each word is in and its numeric columns, computed on the
 * first question over the table and kept while the table is (see `loadTable`'s cache): reading
 * 60,000 cells costs more than planning an answer.
 */
export function tableWords(table: Table): TableWords {
  const cached = wordsOfTables.get(table);
  if (cached) return cached;
  const width = table.columns.length;
  const postings = new Map<string, number[]>();
  const cells = table.rows.map((row, r) =>
    row.cells.map((cell, c) => {
      const cw = words(cell);
      if (c >= width) return cw;
      for (const w of new Set(cw)) {
        const list = postings.get(w);
        if (list) list.push(r * width + c);
        else postings.set(w, [r * width + c]);
      }
      return cw;
    }),
  );
  const groups = groupRows(table);
  // Group rows' labels ("Graduate") are no values of their column.
  const body = { ...table, rows: table.rows.filter((_, r) => groups[r + 1] !== r) };
  const numeric = table.columns.map((_, i) => isNumericColumn(body, i));
  const computed = {
    cells,
    postings,
    numeric,
    stemRows: stemPostings(postings, width),
    groups,
  };
  wordsOfTables.set(table, computed);
  return computed;
}

/** Per word stem, the rows whose cells hold a word of that stem (`TableWords.stemRows`). */
export function rowsByStem(table: Table): ReadonlyMap<string, readonly number[]> {
  return tableWords(table).stemRows;
}

/** Per word stem, the rows of the cells (row × width + column) holding a word of that stem, in order. */
function stemPostings(postings: ReadonlyMap<string, readonly number[]>, width: number) {
  const sets = new Map<string, Set<number>>();
  for (const [word, cells] of postings) {
    const key = stem(word);
    const rows = sets.get(key) ?? new Set<number>();
    sets.set(key, rows);
    for (const cell of cells) rows.add(Math.floor(cell / width));
  }
  return new Map([...sets].map(([key, rows]) => [key, [...rows].sort((a, b) => a - b)]));
}

/** The cells (row × width + column) holding the phrase's rarest word: the only ones that can hold the phrase. */
function rarestCells(postings: ReadonlyMap<string, readonly number[]>, phrase: readonly string[]) {
  let rarest: readonly number[] | undefined;
  for (const w of phrase) {
    const list = postings.get(w) ?? [];
    if (!rarest || list.length < rarest.length) rarest = list;
  }
  return rarest ?? [];
}

/** Whether `phrase` occurs in `cellWords` as consecutive words. */
function containsPhrase(cellWords: readonly string[], phrase: readonly string[]): boolean {
  outer: for (let i = 0; i + phrase.length <= cellWords.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (cellWords[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Reads a question against a table: the phrases that match cells (conditions on rows, longest and
 * rarest first, each word used once, `skip` positions left out) and how strongly each column is named by the remaining words.
 */
export function readQuestion(
  question: string,
  table: Table,
  skip: ReadonlySet<number> = new Set(),
): QuestionFacts {
  const { cells: cellWords, postings, numeric } = tableWords(table);
  // Phrases with a word no cell holds are skipped before any scan.
  const known = postings;
  const header = new Set(table.columns.flatMap((c) => words(c)));
  const q = questionWords(question, { has: (w) => known.has(w) || header.has(w) });
  const headerWords = table.columns.map((name) => new Set(words(name).map(stem)));
  const used = new Set<number>(skip);
  const conditions: Condition[] = [];
  const width = table.columns.length;
  for (let n = Math.min(8, q.length); n >= 1; n--) {
    for (let start = 0; start + n <= q.length; start++) {
      const at = Array.from({ length: n }, (_, k) => start + k);
      if (at.some((i) => used.has(i))) continue;
      const phrase = q.slice(start, start + n);
      if (phrase.some((w) => !known.has(w)) || phrase.every((w) => STOP.has(w))) continue;
      if (n === 1 && STOP.has(phrase[0] ?? '')) continue;
      // Per column: cells holding the phrase, and whether one equals it; only the cells holding
      // its rarest word are read (a 10,000-row sheet).
      const hits = table.columns.map(() => ({ count: 0, exact: false }));
      for (const cell of rarestCells(known, phrase)) {
        const c = cell % width;
        const cw = cellWords[Math.floor(cell / width)]?.[c] ?? [];
        const hit = hits[c];
        if (!hit || !containsPhrase(cw, phrase)) continue;
        hit.count += 1;
        if (cw.length === phrase.length) hit.exact = true;
      }
      let best = -1;
      for (let c = 0; c < hits.length; c++) {
        const h = hits[c];
        const b = hits[best];
        if (!h || h.count === 0) continue;
        if (!b || (h.exact && !b.exact) || (h.exact === b.exact && h.count < b.count)) best = c;
      }
      const hit = hits[best];
      if (!hit) continue;
      // A single common word that names a column, or matches most rows, is not a condition.
      const single = phrase[0] ?? '';
      if (n === 1 && headerWords.some((h) => h.has(stem(single))) && !hit.exact) continue;
      if (n === 1 && !hit.exact && hit.count * 2 > table.rows.length && table.rows.length > 4) continue;
      if (n === 1 && numeric[best] && !hit.exact) continue;
      const condition: Condition = { column: best, phrase, at, exact: hit.exact };
      if (negatedAt(q, start)) condition.negated = true;
      conditions.push(condition);
      for (const i of at) used.add(i);
    }
  }
  const headerAt = new Set<number>();
  const columnScores = headerWords.map((header) => {
    let score = 0;
    q.forEach((w, i) => {
      if (used.has(i) || !namesHeader(header, stem(w))) return;
      score += STOP.has(w) ? 0.25 : 1;
      headerAt.add(i);
    });
    return header.size ? score / Math.sqrt(header.size) : 0;
  });
  return { words: q, conditions, columnScores, numeric, headerAt };
}

/** Whether a question word names a header word: the same stem, or one a longer form of the other ("attend", "attendance"). */
function namesHeader(header: ReadonlySet<string>, word: string): boolean {
  if (header.has(word)) return true;
  if (word.length < 5 || /^\d/.test(word)) return false;
  for (const h of header) if (h.length >= 5 && (h.startsWith(word) || word.startsWith(h))) return true;
  return false;
}

/**
 * Whether a condition names a group (`groupRows`) rather than a cell of its rows: every cell of its
 * column holding the phrase is a group row's. Its column is then no column the question uses.
 */
export function namesGroup(table: Table, condition: Condition): boolean {
  const { cells, groups } = tableWords(table);
  const held = table.rows.flatMap((_, r) =>
    containsPhrase(cells[r]?.[condition.column] ?? [], condition.phrase) ? [r] : [],
  );
  return held.length > 0 && held.every((r) => groups[r + 1] === r);
}

/**
 * Rows satisfying every condition (conditions on one column: any of them). Only the rows holding
 * the rarest word of a column's phrases are read, not the whole table, when a condition must hold.
 */
export function matchingRows(table: Table, conditions: readonly Condition[]): number[] {
  const { cells, postings, groups } = tableWords(table);
  const members = new Map<number, number[]>();
  groups.forEach((g, r) => {
    if (g >= 0) members.set(g, [...(members.get(g) ?? []), r]);
  });
  // A row holds a phrase in a column when its cell does, or its group row's cell does.
  const holds = (r: number, column: number, phrase: readonly string[]) =>
    containsPhrase(cells[r]?.[column] ?? [], phrase) ||
    ((groups[r] ?? -1) >= 0 && containsPhrase(cells[groups[r] ?? -1]?.[column] ?? [], phrase));
  const width = table.columns.length;
  const byColumn = new Map<number, Condition[]>();
  for (const c of conditions) byColumn.set(c.column, [...(byColumn.get(c.column) ?? []), c]);
  let pool: number[] | undefined;
  for (const [column, list] of byColumn) {
    const rows = new Set<number>();
    for (const c of list)
      if (!c.negated)
        for (const cell of rarestCells(postings, c.phrase))
          if (cell % width === column) {
            const r = Math.floor(cell / width);
            rows.add(r);
            for (const m of members.get(r) ?? []) rows.add(m);
          }
    if (list.some((c) => !c.negated) && (!pool || rows.size < pool.length))
      pool = [...rows].sort((a, b) => a - b);
  }
  return (pool ?? table.rows.map((_, r) => r)).filter((r) => {
    // A group row labels its rows; it is none of them.
    if (members.has(r)) return false;
    for (const [column, list] of byColumn) {
      const held = list.filter((c) => !c.negated);
      if (held.length && !held.some((c) => holds(r, column, c.phrase))) return false;
      if (list.some((c) => c.negated && holds(r, column, c.phrase))) return false;
    }
    return true;
  });
}

/** A number the question compares a column with: "more than 20", "under 5", "before 1990". */
export interface Comparison {
  op: '>' | '<' | '>=' | '<=';
  value: number;
  /** Question word positions it took (the number). */
  at: number;
}

const COMPARISONS: [RegExp, Comparison['op']][] = [
  [/^(?:more|greater|higher|larger|bigger|longer|older|later|over|above|after|exceeding|beyond)$/, '>'],
  [/^(?:less|fewer|lower|smaller|shorter|younger|earlier|under|below|before)$/, '<'],
];

/** The numeric comparisons of a question ("at least 3" is >=, "at most" <=). */
export function comparisons(q: readonly string[]): Comparison[] {
  const out: Comparison[] = [];
  q.forEach((w, i) => {
    const value = cellNumber(w);
    if (value === undefined || i === 0) return;
    // "between 88 and 92": both bounds.
    const low = cellNumber(q[i - 2] ?? '');
    if (q[i - 1] === 'and' && q[i - 3] === 'between' && low !== undefined) {
      out.push({ op: '>=', value: low, at: i - 2 }, { op: '<=', value, at: i });
      return;
    }
    const prev = q[i - 1] ?? '';
    const prev2 = q[i - 2] ?? '';
    const word = prev === 'than' ? prev2 : prev;
    if (word === 'least' && prev2 === 'at') out.push({ op: '>=', value, at: i });
    else if (word === 'most' && prev2 === 'at') out.push({ op: '<=', value, at: i });
    else
      for (const [re, op] of COMPARISONS)
        if (re.test(word) && (prev === 'than' || /^(?:over|above|under|below|before|after)$/.test(word)))
          out.push({ op, value, at: i });
  });
  return out;
}

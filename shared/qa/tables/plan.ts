import {
  type Comparison,
  comparisons,
  matchingRows,
  type QuestionFacts,
  questionWords,
  readQuestion,
} from './question.ts';
import { cellNumber, cellYear, isDateColumn, isYearColumn, type Table } from './table.ts';

/** The shapes of question the planner answers. */
export type TableShape =
  | 'lookup'
  | 'count'
  | 'highest'
  | 'lowest'
  | 'first'
  | 'last'
  | 'sum'
  | 'average'
  | 'difference'
  | 'previous'
  | 'next'
  | 'choice'
  /** Whether a row holds what the question says of it ("Is encryption enabled?"). */
  | 'yes-no'
  /** The value a form gives the label the question names (`planForm`). */
  | 'field'
  /** No shape fits: the rows that best match the question, quoted whole (`bestRows`). */
  | 'rows';

/** A planned answer: the result, how it was obtained, and the rows it used (indices into `table.rows`). */
export interface TablePlan {
  shape: TableShape;
  result: string[];
  how: string;
  rows: number[];
}

const MOST =
  /^(?:most|highest|largest|greatest|biggest|maximum|max|longest|tallest|heaviest|top|more|higher|larger|greater|bigger|longer|better)$/;
const LEAST = /^(?:least|lowest|fewest|smallest|minimum|min|shortest|less|fewer|lower|smaller|shorter)$/;
const FIRST = /^(?:first|earliest|oldest|top)$/;
const LAST = /^(?:last|latest|final|most recent|newest|bottom)$/;
const BEFORE = /^(?:before|previous|preceding|above|prior)$/;
const AFTER = /^(?:after|next|following|below|succeeding)$/;
/** An English question that asks yes or no opens with an auxiliary verb. */
const AUXILIARY = /^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)$/;
/** A Chinese one ends in 吗 or asks 是否 / 有没有 / 是不是. */
const YES_NO_ZH = /(?:[吗嗎][\s？?。]*$|是否|有没有|是不是)/u;
const NAME_HEADER =
  /\b(?:name|player|athlete|driver|rider|artist|team|candidate|winner|person|member|title|club|nation|country|song|film|album|opponent|school|city|party|ship|game|event|location|venue|builder|manufacturer|model|station|character)s?\b/i;
/** Units "how many" asks an amount in, not a number of rows ("how many tons of MOP"). */
const UNIT =
  /^(?:tons?|tonnes?|mt|kg|kilograms?|grams?|pounds?|lbs?|ounces?|lit(?:er|re)s?|gallons?|barrels?|met(?:er|re)s?|km|kilomet(?:er|re)s?|miles?|feet|inches|dollars?|euros?|hours?|minutes?|seconds?)$/;
const WHEN_HEADER = /\b(?:year|date|season|time|day|born|released?)s?\b/i;
const WHERE_HEADER = /\b(?:venue|location|city|place|country|site|stadium|town|state|region|nation)\b/i;

const format = (n: number) =>
  Number.isInteger(n)
    ? n.toLocaleString('en-US').replaceAll(',', n >= 10_000 ? ',' : '')
    : String(Number(n.toFixed(3)));
const isYear = (n: number) => Number.isInteger(n) && n >= 1000 && n <= 2100;
const has = (q: readonly string[], re: RegExp) => q.some((w) => re.test(w));
const cellOf = (table: Table, r: number, c: number) => table.rows[r]?.cells[c] ?? '';
const nameOf = (table: Table, c: number) => table.columns[c] ?? `column ${c + 1}`;
/**
 * A question's words as the plan names them: in single quotes, because an answer's double
 * quotation marks claim verbatim document text (shared/qa/citations.ts) and these are the
 * question's words, lower-cased.
 */
const term = (phrase: string) => `‘${phrase}’`;

/** The column the question asks for, among those no condition uses: named by its header, else by the wh-word. */
function answerColumn(
  table: Table,
  facts: QuestionFacts,
  exclude: ReadonlySet<number>,
  numericOnly = false,
): number {
  const q = facts.words;
  let best = -1;
  let bestScore = 0;
  table.columns.forEach((name, c) => {
    if (exclude.has(c) || (numericOnly && !facts.numeric[c])) return;
    let score = facts.columnScores[c] ?? 0;
    if (q.includes('who') && NAME_HEADER.test(name)) score += 0.6;
    if ((q.includes('when') || q.includes('year')) && WHEN_HEADER.test(name)) score += 0.6;
    // "When is MV.MUKARNAS expected?": the dates ("ETA") answer it, not the column named "EXPECTED TO REPORT".
    if (q.includes('when') && isDateColumn(table, c)) score += 0.6;
    if (q.includes('where') && WHERE_HEADER.test(name)) score += 0.6;
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  });
  if (best >= 0 || numericOnly) return best;
  // Nothing named: the first text column not used by a condition (a table's key is usually first).
  const text = table.columns.findIndex(
    (_, c) => !exclude.has(c) && !facts.numeric[c] && !/^(?:no|#|rank|pos)\.?$/i.test(table.columns[c] ?? ''),
  );
  return text >= 0 ? text : table.columns.findIndex((_, c) => !exclude.has(c));
}

/** Comparatives that name what they compare ("younger than 20": the age). */
const COMPARED: [RegExp, RegExp][] = [
  [/^(?:younger|older)$/, /\bage\b/i],
  [/^(?:faster|slower|quicker)$/, /\btime\b/i],
  [/^(?:heavier|lighter|weigh|weighs|weighed)$/, /\bweight\b/i],
  [/^(?:taller)$/, /\bheight\b/i],
  [/^(?:longer|shorter)$/, /\blength\b/i],
];

/**
 * The numeric column a comparison or aggregate applies to: named by the question (or by its
 * comparative: "younger" → Age); for a year, a column of dates or years; else, for a value, the
 * numeric column whose values it falls among, closest to their middle.
 */
function numericColumn(
  table: Table,
  facts: QuestionFacts,
  exclude: ReadonlySet<number>,
  value?: number,
): number {
  const named = answerColumn(table, facts, exclude, true);
  if (named >= 0) return named;
  for (const [word, header] of COMPARED)
    if (facts.words.some((w) => word.test(w))) {
      const c = table.columns.findIndex((name, i) => !exclude.has(i) && header.test(name));
      if (c >= 0) return c;
    }
  if (value === undefined) return -1;
  if (isYear(value)) {
    const years = table.columns.map((_, c) => !exclude.has(c) && isYearColumn(table, c));
    const scored = table.columns.findIndex((_, c) => years[c] && (facts.columnScores[c] ?? 0) > 0);
    if (scored >= 0) return scored;
    const year = table.columns.findIndex((name, c) => years[c] && WHEN_HEADER.test(name));
    if (year >= 0) return year;
  }
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  table.columns.forEach((_, c) => {
    if (exclude.has(c) || !facts.numeric[c]) return;
    const values = table.rows
      .map((row) => cellNumber(row.cells[c] ?? ''))
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    const min = values[0];
    const max = values.at(-1);
    const median = values[Math.floor(values.length / 2)];
    if (min === undefined || max === undefined || median === undefined || value < min || value > max) return;
    const distance = Math.abs(Math.log1p(Math.abs(median)) - Math.log1p(Math.abs(value)));
    if (distance < bestDistance) {
      best = c;
      bestDistance = distance;
    }
  });
  return best;
}

function compare(value: number | undefined, c: Comparison): boolean {
  if (value === undefined) return false;
  if (c.op === '>') return value > c.value;
  if (c.op === '<') return value < c.value;
  if (c.op === '>=') return value >= c.value;
  return value <= c.value;
}

/** Whether a column numbers its rows (1, 2, 3 …, each filled cell one more than the last): no amount. */
function isCounter(table: Table, column: number): boolean {
  let last: number | undefined;
  for (const row of table.rows) {
    const cell = row.cells[column] ?? '';
    if (!cell) continue;
    const n = Number(cell);
    if (!Number.isInteger(n) || (last !== undefined && n !== last + 1)) return false;
    last = n;
  }
  return last !== undefined;
}

const distinct = (values: string[]) => [...new Set(values.filter(Boolean))];

/**
 * Plans the answer to a question over one table (deterministic, no model): the conditions the
 * question puts on rows (phrases matching cells, numeric comparisons), the column it asks for, and
 * its shape — count ("how many … with …"), highest / lowest, first / last, sum / average, the
 * difference between two rows, the row before or after one, a choice between two named rows, or a
 * lookup of a column in the matching rows. Undefined when the question names nothing in the table.
 *
 * @example planTable('how many cups have the maple leafs won?', table) // { shape: 'lookup', result: ['13'], … }
 */
export function planTable(question: string, table: Table): TablePlan | undefined {
  if (table.rows.length === 0) return undefined;
  const q0 = questionWords(question);
  const comps = comparisons(q0);
  const facts = readQuestion(question, table, new Set(comps.map((c) => c.at)));
  const q = facts.words;
  const text = ` ${q.join(' ')} `;
  const condColumns = new Set(facts.conditions.map((c) => c.column));
  let rows = matchingRows(table, facts.conditions);
  const filters: string[] = facts.conditions.map(
    (c) => `${nameOf(table, c.column)} ${c.negated ? 'does not have' : 'has'} ${term(c.phrase.join(' '))}`,
  );
  // Comparisons that apply to a column: one that names none keeps no row out, and is no condition.
  const applied: Comparison[] = [];
  /** The columns the applied comparisons are on, in their order. */
  const compared: number[] = [];
  for (const comp of comps) {
    const column = numericColumn(table, facts, condColumns, comp.value);
    if (column < 0) continue;
    applied.push(comp);
    compared.push(column);
    const read = isYear(comp.value) && isYearColumn(table, column) ? cellYear : cellNumber;
    rows = rows.filter((r) => compare(read(cellOf(table, r, column)), comp));
    filters.push(`${nameOf(table, column)} ${comp.op} ${comp.value}`);
    condColumns.add(column);
  }
  const where = filters.length ? ` where ${filters.join(' and ')}` : '';
  const all = table.rows.map((_, r) => r);
  const howMany = text.includes(' how many ') || text.includes(' number of ') || text.includes(' count ');
  const target = numericColumn(table, facts, condColumns);

  // A choice between two or more named rows: "who has more …, X or Y?"
  const sameColumn = facts.conditions.filter((c) => c.column === facts.conditions[0]?.column);
  if (q.includes('or') && sameColumn.length >= 2) {
    const options = sameColumn.map((c) => ({ c, rows: matchingRows(table, [c]) }));
    const score = (rs: number[]) =>
      target >= 0 ? rs.reduce((s, r) => s + (cellNumber(cellOf(table, r, target)) ?? 0), 0) : rs.length;
    const wantsLess = has(q, LEAST) && !has(q, MOST);
    const wantsFirst = has(q, FIRST) || has(q, BEFORE);
    const ranked = [...options].sort((a, b) =>
      wantsFirst
        ? (a.rows[0] ?? 1e9) - (b.rows[0] ?? 1e9)
        : wantsLess
          ? score(a.rows) - score(b.rows)
          : score(b.rows) - score(a.rows),
    );
    const winner = ranked[0];
    if (winner) {
      const cell = winner.rows.map((r) => cellOf(table, r, winner.c.column))[0] ?? winner.c.phrase.join(' ');
      const by = wantsFirst
        ? 'comes first in the table'
        : target >= 0
          ? `has the ${wantsLess ? 'lower' : 'higher'} ${nameOf(table, target)}`
          : `has ${wantsLess ? 'fewer' : 'more'} rows`;
      return {
        shape: 'choice',
        result: [cell],
        how: `Of ${options.map((o) => term(o.c.phrase.join(' '))).join(' and ')}, ${cell} ${by}.`,
        rows: options.flatMap((o) => o.rows).slice(0, 8),
      };
    }
  }

  // Compared with a named row: "which player won more money than Skee Riegel?"
  const than = q.indexOf('than');
  const reference = facts.conditions.find((c) => (c.at[0] ?? 0) > than && than > 0);
  const comparative = q.slice(Math.max(0, than - 4), than).find((w) => /(?:er|more|less|fewer)$/.test(w));
  if (reference && comparative && applied.length === 0) {
    const others = facts.conditions.filter((c) => c !== reference);
    const own = new Set(others.map((c) => c.column));
    own.add(reference.column);
    const column = numericColumn(table, facts, own);
    const [ref] = matchingRows(table, [reference]);
    const refValue = ref === undefined || column < 0 ? undefined : cellNumber(cellOf(table, ref, column));
    if (ref !== undefined && refValue !== undefined) {
      const less =
        LEAST.test(comparative) ||
        /^(?:younger|lighter|shorter|faster|earlier|less|fewer)$/.test(comparative);
      const pool = others.length ? matchingRows(table, others) : all;
      const found = pool.filter((r) => {
        const v = cellNumber(cellOf(table, r, column));
        return r !== ref && v !== undefined && (less ? v < refValue : v > refValue);
      });
      const rule = `${nameOf(table, column)} ${less ? 'below' : 'above'} ${cellOf(table, ref, column)} (the row of ${term(reference.phrase.join(' '))})`;
      if (howMany)
        return {
          shape: 'count',
          result: [String(found.length)],
          how: `${found.length} rows with ${rule}.`,
          rows: [ref, ...found].slice(0, 8),
        };
      const answer = answerColumn(table, facts, new Set([column]));
      const values = distinct(found.map((r) => cellOf(table, r, answer)));
      if (values.length)
        return {
          shape: 'lookup',
          result: values.slice(0, 6),
          how: `${nameOf(table, answer)} of the rows with ${rule}.`,
          rows: [ref, ...found].slice(0, 8),
        };
    }
  }

  // The difference between two rows (or groups) in a numeric column.
  if (text.includes(' difference ') || / how (?:many|much) (?:more|less|fewer)\b/.test(text)) {
    const groups =
      facts.conditions.length >= 2 ? facts.conditions.slice(0, 2).map((c) => matchingRows(table, [c])) : [];
    const [a, b] = groups;
    if (a?.length && b?.length) {
      const sum = (rs: number[]) =>
        target >= 0 ? rs.reduce((s, r) => s + (cellNumber(cellOf(table, r, target)) ?? 0), 0) : rs.length;
      const diff = Math.abs(sum(a) - sum(b));
      const what = target >= 0 ? nameOf(table, target) : 'rows';
      return {
        shape: 'difference',
        result: [format(diff)],
        how: `${what}: ${format(sum(a))} and ${format(sum(b))}, a difference of ${format(diff)}.`,
        rows: [...a, ...b].slice(0, 8),
      };
    }
  }

  // The row before or after a named one.
  const beforeAt = q.findIndex((w) => BEFORE.test(w));
  const afterAt = q.findIndex((w) => AFTER.test(w));
  if (
    (beforeAt >= 0 || afterAt >= 0) &&
    rows.length === 1 &&
    facts.conditions.length >= 1 &&
    applied.length === 0
  ) {
    const [r] = rows as [number];
    const step = beforeAt >= 0 && (afterAt < 0 || beforeAt < afterAt) ? -1 : 1;
    const other = r + step;
    if (other >= 0 && other < table.rows.length) {
      const column = answerColumn(table, facts, new Set(), false);
      const c = facts.conditions[0]?.column ?? column;
      const col = (facts.columnScores[column] ?? 0) > 0 ? column : c;
      return {
        shape: step < 0 ? 'previous' : 'next',
        result: [cellOf(table, other, col)],
        how: `The row ${step < 0 ? 'before' : 'after'} the one${where}, read in table order; its ${nameOf(table, col)}.`,
        rows: [r, other],
      };
    }
  }

  const yesNo = yesNoPlan(question, q0, table, facts, { rows, filters, columns: condColumns, compared });
  if (yesNo) return yesNo;

  const scope = facts.conditions.length || applied.length ? rows : all;
  if (scope.length === 0) return undefined;

  // Superlatives over a numeric column: highest / lowest.
  const most = has(q, MOST);
  const least = has(q, LEAST);
  if ((most || least) && !howMany) {
    const answer = answerColumn(table, facts, new Set([...condColumns, ...(target >= 0 ? [target] : [])]));
    if (target >= 0 && answer >= 0) {
      const valued = scope.filter((r) => cellNumber(cellOf(table, r, target)) !== undefined);
      const pick = valued.reduce<number | undefined>((best, r) => {
        if (best === undefined) return r;
        const v = cellNumber(cellOf(table, r, target)) ?? 0;
        const bv = cellNumber(cellOf(table, best, target)) ?? 0;
        return (least && !most ? v < bv : v > bv) ? r : best;
      }, undefined);
      if (pick !== undefined)
        return {
          shape: least && !most ? 'lowest' : 'highest',
          result: [cellOf(table, pick, answer)],
          how: `The row with the ${least && !most ? 'lowest' : 'highest'} ${nameOf(table, target)} (${cellOf(table, pick, target)})${where}; its ${nameOf(table, answer)}.`,
          rows: [pick],
        };
    }
    if (answer >= 0) {
      // No numeric column named: the value that occurs in the most (or fewest) rows.
      const counts = new Map<string, number[]>();
      for (const r of scope) {
        const v = cellOf(table, r, answer);
        if (v) counts.set(v, [...(counts.get(v) ?? []), r]);
      }
      const ranked = [...counts].sort((x, y) =>
        least && !most ? x[1].length - y[1].length : y[1].length - x[1].length,
      );
      const top = ranked[0];
      if (top && (ranked.length < scope.length || scope.length === 1))
        return {
          shape: least && !most ? 'lowest' : 'highest',
          result: [top[0]],
          how: `${top[0]} appears in ${top[1].length} rows${where}, the ${least && !most ? 'fewest' : 'most'} of any ${nameOf(table, answer)}.`,
          rows: top[1].slice(0, 6),
        };
    }
  }

  // How much (or how many of a unit: "how many tons"), of rows the question names: the one numeric
  // column (not of dates or years, nor a counter 1, 2, 3 …) they fill ("How much coal did MV.
  // DEVONGATE import?" → its QTY(IMP)); never a count of rows.
  const amount = text.includes(' how much ') || UNIT.test(q[q.indexOf('many') + 1] ?? '');
  if (amount && target < 0 && facts.conditions.length > 0 && rows.length > 0) {
    const valued = table.columns.flatMap((_, c) =>
      !condColumns.has(c) &&
      facts.numeric[c] &&
      !isYearColumn(table, c) &&
      !isCounter(table, c) &&
      rows.some((r) => cellNumber(cellOf(table, r, c)) !== undefined)
        ? [c]
        : [],
    );
    const [only] = valued;
    if (only !== undefined && valued.length === 1)
      return {
        shape: 'lookup',
        result: distinct(rows.map((r) => cellOf(table, r, only))).slice(0, 6),
        how: `${nameOf(table, only)} (the one amount) of the row${rows.length > 1 ? 's' : ''}${where}.`,
        rows: rows.slice(0, 6),
      };
  }

  // How many: a numeric cell of the matching rows, else the count of matching rows.
  if (howMany) {
    const sumWords = /\b(?:total|combined|altogether|sum|in all|overall)\b/.test(text);
    if (target >= 0 && facts.conditions.length > 0 && (facts.columnScores[target] ?? 0) > 0) {
      if (rows.length === 1 || !sumWords) {
        const [r] = rows as [number];
        if (r !== undefined)
          return {
            shape: 'lookup',
            result: [cellOf(table, r, target)],
            how: `${nameOf(table, target)} of the row${where}.`,
            rows: rows.slice(0, 6),
          };
      } else {
        const total = rows.reduce((s, r) => s + (cellNumber(cellOf(table, r, target)) ?? 0), 0);
        return {
          shape: 'sum',
          result: [format(total)],
          how: `Sum of ${nameOf(table, target)} over ${rows.length} rows${where}.`,
          rows: rows.slice(0, 8),
        };
      }
    }
    if (target >= 0 && sumWords && facts.conditions.length === 0 && applied.length === 0) {
      const total = all.reduce((s, r) => s + (cellNumber(cellOf(table, r, target)) ?? 0), 0);
      return {
        shape: 'sum',
        result: [format(total)],
        how: `Sum of ${nameOf(table, target)} over all ${all.length} rows.`,
        rows: all.slice(0, 5),
      };
    }
    const named = facts.columnScores.findIndex((v, c) => v > 0 && !facts.numeric[c] && !condColumns.has(c));
    if (named >= 0 && /\b(?:different|distinct|unique|various)\b/.test(text)) {
      const values = distinct(scope.map((r) => cellOf(table, r, named)));
      const listed = `${values.slice(0, 6).join(', ')}${values.length > 6 ? ', …' : ''}`;
      return {
        shape: 'count',
        result: [String(values.length)],
        how: `${values.length} different ${nameOf(table, named)} values in ${scope.length} rows${where}: ${listed}.`,
        rows: scope.slice(0, 8),
      };
    }
    return {
      shape: 'count',
      result: [String(scope.length)],
      how: `${scope.length} of ${table.rows.length} rows${where || ' (every row)'}.`,
      rows: scope.slice(0, 8),
    };
  }

  // Sum and average of a named numeric column.
  const averaged = /\b(?:average|mean)\b/.test(text);
  if (
    (averaged || /\b(?:total|combined|sum)\b/.test(text)) &&
    target >= 0 &&
    (facts.columnScores[target] ?? 0) > 0
  ) {
    const values = scope
      .map((r) => cellNumber(cellOf(table, r, target)))
      .filter((v): v is number => v !== undefined);
    if (values.length > 1) {
      const total = values.reduce((s, v) => s + v, 0);
      const value = averaged ? total / values.length : total;
      return {
        shape: averaged ? 'average' : 'sum',
        result: [format(value)],
        how: `${averaged ? 'Average' : 'Sum'} of ${nameOf(table, target)} over ${values.length} rows${where}.`,
        rows: scope.slice(0, 8),
      };
    }
  }

  // First or last in table order.
  const answer = answerColumn(table, facts, condColumns);
  if (answer < 0) return undefined;
  const first = has(q, FIRST);
  const last = has(q, LAST) || text.includes(' most recent ');
  if (first || last) {
    const r = first && !last ? scope[0] : scope.at(-1);
    if (r !== undefined)
      return {
        shape: first && !last ? 'first' : 'last',
        result: [cellOf(table, r, answer)],
        how: `The ${first && !last ? 'first' : 'last'} row${where} in table order; its ${nameOf(table, answer)}.`,
        rows: [r],
      };
  }

  // Lookup: the asked column of the matching rows.
  if (facts.conditions.length === 0 && applied.length === 0) return undefined;
  const values = distinct(scope.map((r) => cellOf(table, r, answer)));
  if (values.length === 0) return undefined;
  return {
    shape: 'lookup',
    result: values.slice(0, 6),
    how: `${nameOf(table, answer)} of the ${scope.length === 1 ? 'row' : `${scope.length} rows`}${where}.`,
    rows: scope.slice(0, 6),
  };
}

/**
 * A yes/no question over a table ("Is encryption enabled?", "Did Norway win more than 10 gold?",
 * "加密是否启用？"): yes when a row meets every condition; no when the row the question is about (its
 * first-named condition) exists but fails the rest, with what that row holds in the columns the
 * other conditions and comparisons (`met.columns`) are on. Undefined
 * when the question is no yes/no question, puts fewer than two conditions, or names no row.
 */
function yesNoPlan(
  question: string,
  words: readonly string[],
  table: Table,
  facts: QuestionFacts,
  met: { rows: number[]; filters: string[]; columns: ReadonlySet<number>; compared: readonly number[] },
): TablePlan | undefined {
  const { rows, filters } = met;
  const zh = /\p{Script=Han}/u.test(question);
  if (!(zh ? YES_NO_ZH.test(question.trim()) : AUXILIARY.test(words[0] ?? ''))) return undefined;
  // "Was its area above or below 45 square miles?" asks which, not whether.
  if (words.includes('or') || /还是/u.test(question)) return undefined;
  if (filters.length < 2) return undefined;
  // Rows compared with each other ("was Russia's open for more years than Singapore's?": two
  // conditions on one column, which any row meets by one of them), or a number compared with a
  // column the question does not name or one of years ("for more than 5 years"), are no row's
  // yes or no.
  const columns = facts.conditions.map((c) => c.column);
  if (new Set(columns).size < columns.length) return undefined;
  const namedPlainly = (c: number) => (facts.columnScores[c] ?? 0) > 0 && !isYearColumn(table, c);
  if (!met.compared.every(namedPlainly)) return undefined;
  const [yes, no] = zh ? ['是', '否'] : ['Yes', 'No'];
  if (rows.length > 0)
    return {
      shape: 'yes-no',
      result: [yes],
      how: `A row where ${filters.join(' and ')}.`,
      rows: rows.slice(0, 6),
    };
  const subject = [...facts.conditions].sort((a, b) => (a.at[0] ?? 0) - (b.at[0] ?? 0))[0];
  if (!subject || subject.negated) return undefined;
  const about = matchingRows(table, [subject]);
  if (about.length === 0) return undefined;
  const said = [...met.columns].filter((c) => c !== subject.column);
  const held = said.map(
    (c) => `${nameOf(table, c)} ${distinct(about.map((r) => cellOf(table, r, c))).join(', ')}`,
  );
  const instead = held.length ? `: ${held.join('; ')}` : '';
  return {
    shape: 'yes-no',
    result: [no],
    how: `No row where ${filters.join(' and ')}; the row${about.length > 1 ? 's' : ''} where ${nameOf(table, subject.column)} has ${term(subject.phrase.join(' '))}${instead}.`,
    rows: about.slice(0, 6),
  };
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/index.ts';
import { ask } from '#shared/qa/ask.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import type { QaResponse } from '#shared/qa/response.ts';
import { openRuntime } from '#shared/runtime/runtime.ts';
import { answerBody } from './answers.ts';
import { quantile } from './metrics.ts';
import type { EvalProgress } from './run.ts';

/** Characters after the leading notice within which every gold answer must stand. */
export const TABLE_EARLY_CHARS = 300;

/** A table question set: table files a user would drop in, and questions over one table each. */
export interface TableSet {
  name: string;
  /** Folder of the table files (`tables/`). */
  tablesDir: string;
  /** File names of the tables, in order. */
  tables: string[];
  queries: { id: string; text: string; table: string; answers: string[] }[];
}

export interface TableOutcome {
  id: string;
  question: string;
  table: string;
  answered: boolean;
  mode: string;
  answer: string;
}

export interface TableScore {
  set: string;
  questions: number;
  tables: number;
  /** Share whose every gold answer is a whole token within `TABLE_EARLY_CHARS` after the notice. */
  answered: number;
  failedTables: number;
  p50Ms: number;
  p95Ms: number;
  outcomes: TableOutcome[];
}

/** Whether a folder is a table set: a `tables/` folder beside `queries.jsonl`. */
export function isTableSet(dir: string): boolean {
  return existsSync(join(dir, 'tables')) && existsSync(join(dir, 'queries.jsonl'));
}

/**
 * Reads a table set (`tables/*`, `queries.jsonl` with `table` and `answers`). Throws naming the file
 * and line of anything malformed, or of a question whose table is missing.
 *
 * @example loadTableSet('../shared/eval/tables-en').queries.length // 300
 */
export function loadTableSet(dir: string, name = dir.split(/[\\/]/).filter(Boolean).at(-1) ?? dir): TableSet {
  const tablesDir = join(dir, 'tables');
  const tables = readdirSync(tablesDir).sort();
  const known = new Set(tables);
  const file = join(dir, 'queries.jsonl');
  const queries = readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ line, where: `${file}:${i + 1}` }))
    .filter(({ line }) => line.trim())
    .map(({ line, where }) => {
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new Error(`${where}: not JSON (${(error as Error).message})`);
      }
      const { _id: id, text, table, answers } = value;
      if (typeof id !== 'string' || typeof text !== 'string' || typeof table !== 'string')
        throw new Error(`${where}: "_id", "text" and "table" must be strings`);
      if (!known.has(table)) throw new Error(`${where}: no table ${table} in ${tablesDir}`);
      if (!Array.isArray(answers) || answers.length === 0)
        throw new Error(`${where}: "answers" must be a non-empty list`);
      return { id, text, table, answers: answers.map(String) };
    });
  return { name, tablesDir, tables, queries };
}

const normalize = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Scores one table answer: answered when every gold answer occurs as a whole token (not inside a
 * longer word or number; case and runs of spaces ignored) within the first `TABLE_EARLY_CHARS`
 * characters of the answer after its leading notice (`answerBody`).
 *
 * @example scoreTableAnswer('… 13 Stanley Cups [1]', ['13']) // true; ['1'] → false
 */
export function scoreTableAnswer(answer: string, gold: readonly string[]): boolean {
  const head = normalize([...answerBody(answer)].slice(0, TABLE_EARLY_CHARS).join(''));
  return gold.every((g) => {
    const token = normalize(g);
    return (
      token !== '' && new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(token)}(?![\\p{L}\\p{N}])`, 'u').test(head)
    );
  });
}

/**
 * Ingests every table the questions ask about, as the file it is (into `config.dataDir`), then asks each question
 * (mode `auto`, through `ask` as the API does) with its table's document as the only document, and
 * scores the answers (`scoreTableAnswer`).
 */
export async function scoreTables(
  set: TableSet,
  config: Config,
  progress: EvalProgress = () => {},
): Promise<TableScore> {
  const rt = await openRuntime(config);
  try {
    const prefix = `eval/${set.name}/`;
    // Only the tables asked about (all of them unless `--limit` cut the questions).
    const asked = set.tables.filter((table) => set.queries.some((q) => q.table === table));
    const files = asked.map((table) => ({
      key: `${prefix}${table}`,
      bytes: new Uint8Array(readFileSync(join(set.tablesDir, table))),
    }));
    let done = 0;
    let failedTables = 0;
    progress(0, files.length, 'ingest');
    await rt.ingest.ingest(files, (outcome) => {
      done += 1;
      if (outcome.status === 'failed') {
        failedTables += 1;
        process.stderr.write(`\n${outcome.key} failed: ${outcome.error}\n`);
      }
      progress(done, files.length, 'ingest');
    });
    const rows = await queryRows<{ id: string; key: string }>(
      rt.db,
      sql`SELECT id, key FROM documents WHERE deleted_at IS NULL AND key LIKE ${`${prefix}%`}`,
    );
    const idOf = new Map(rows.map((row) => [row.key.slice(prefix.length), row.id]));
    const outcomes: TableOutcome[] = [];
    const times: number[] = [];
    for (const [i, query] of set.queries.entries()) {
      const documentId = idOf.get(query.table);
      let response: QaResponse | undefined;
      const began = performance.now();
      if (documentId) {
        const request = askRequestSchema.parse({ question: query.text, document_ids: [documentId] });
        for await (const event of ask(rt.qa, request)) {
          if (event.type === 'done') response = event.data.response;
          if (event.type === 'error') throw new Error(`${query.id}: ${event.data.message}`);
        }
      }
      times.push(performance.now() - began);
      const answer = response?.answer ?? '';
      outcomes.push({
        id: query.id,
        question: query.text,
        table: query.table,
        answered: scoreTableAnswer(answer, query.answers),
        mode: response?.mode ?? '',
        answer,
      });
      progress(i + 1, set.queries.length, 'answers');
    }
    return {
      set: set.name,
      questions: outcomes.length,
      tables: files.length,
      answered: outcomes.length ? outcomes.filter((o) => o.answered).length / outcomes.length : 0,
      failedTables,
      p50Ms: quantile(times, 0.5),
      p95Ms: quantile(times, 0.95),
      outcomes,
    };
  } finally {
    await rt.close();
  }
}

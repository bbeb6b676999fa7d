import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One corpus entry of a BEIR-format set. */
export interface BeirDocument {
  id: string;
  title: string;
  text: string;
}

/** A retrieval set in BEIR format: the corpus, the queries that have judgements, and the judgements. */
export interface BeirSet {
  name: string;
  documents: BeirDocument[];
  /** Only queries with at least one relevant document, in file order. */
  queries: { id: string; text: string }[];
  /** Query id -> relevant corpus id -> graded relevance (> 0). */
  qrels: Map<string, Map<string, number>>;
}

/**
 * Reads `corpus.jsonl`, `queries.jsonl` and `qrels/test.tsv` (header line optional) from a BEIR
 * folder. Throws an error naming the file and line of anything malformed.
 *
 * @example const set = loadBeirSet('../shared/eval/scifact-train'); set.queries.length // 809
 */
export function loadBeirSet(dir: string, name = dir.split(/[\\/]/).filter(Boolean).at(-1) ?? dir): BeirSet {
  const documents = readJsonl(join(dir, 'corpus.jsonl')).map(({ value, where }) => ({
    id: requireString(value._id, '_id', where),
    title: typeof value.title === 'string' ? value.title : '',
    text: requireString(value.text, 'text', where),
  }));
  const qrels = readQrels(join(dir, 'qrels', 'test.tsv'));
  const queries = readJsonl(join(dir, 'queries.jsonl'))
    .map(({ value, where }) => ({
      id: requireString(value._id, '_id', where),
      text: requireString(value.text, 'text', where),
    }))
    .filter((query) => qrels.has(query.id));
  if (queries.length === 0)
    throw new Error(`${dir}: no query of queries.jsonl has a judgement in qrels/test.tsv`);
  return { name, documents, queries, qrels };
}

function readJsonl(path: string): { value: Record<string, unknown>; where: string }[] {
  if (!existsSync(path))
    throw new Error(`${path} not found (a BEIR set needs corpus.jsonl, queries.jsonl, qrels/test.tsv)`);
  const rows: { value: Record<string, unknown>; where: string }[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      const where = `${path}:${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new Error(`${where}: not JSON (${(error as Error).message})`);
      }
      if (!value || typeof value !== 'object') throw new Error(`${where}: not a JSON object`);
      rows.push({ value: value as Record<string, unknown>, where });
    });
  return rows;
}

function requireString(value: unknown, field: string, where: string): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new Error(`${where}: "${field}" must be a string`);
  return value;
}

function readQrels(path: string): Map<string, Map<string, number>> {
  if (!existsSync(path)) throw new Error(`${path} not found`);
  const qrels = new Map<string, Map<string, number>>();
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const cells = line.trim().split('\t');
      if (cells.length < 3 || (i === 0 && cells[0] === 'query-id')) return;
      const [query = '', doc = '', grade = ''] = cells;
      const score = Number(grade);
      if (!Number.isFinite(score)) throw new Error(`${path}:${i + 1}: score '${grade}' is not a number`);
      if (score <= 0) return;
      const judged = qrels.get(query) ?? new Map<string, number>();
      judged.set(doc, score);
      qrels.set(query, judged);
    });
  return qrels;
}

/** The Markdown a corpus entry is ingested as: its title as the heading, then its text. */
export function beirMarkdown(doc: BeirDocument): string {
  return doc.title.trim() ? `# ${doc.title.trim()}\n\n${doc.text}\n` : `${doc.text}\n`;
}

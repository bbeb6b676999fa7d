import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { type Config, parseConfig } from '#shared/config/index.ts';
import type { Db } from '#shared/db/client.ts';
import { deleteDocument, renameDocument } from '#shared/documents/index.ts';
import { type LogFields, type LogLevel, setLogSink } from '#shared/log/logger.ts';
import { openRuntime, type Runtime, searchSnapshotFile } from '#shared/runtime/runtime.ts';
import { fulltextSearch } from '#shared/search/fulltext.ts';
import {
  invalidateMemoryIndex,
  keepMemoryIndexSnapshot,
  warmSearchIndex,
} from '#shared/search/memory-sync.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const FILES: Record<string, string> = {
  'uploads/policy.md':
    '# 稀土政策\n\n## 出口\n\n稀土出口配额由商务部每年公布。\n\nExport quotas and the budget are published yearly.\n',
  // The same text twice: equal scores, ordered by key (a rename reorders them).
  'uploads/a.md': '# Shared\n\nThe storage budget is reviewed every quarter.\n',
  'uploads/b.md': '# Shared\n\nThe storage budget is reviewed every quarter.\n',
  'uploads/plan.md':
    '# Plan\n\n## Budget\n\nThe budget grew; the team review follows.\n\nHiring for the team.\n',
  'uploads/gone.md': '# Gone\n\nA storage cluster and its budget review.\n',
  'uploads/ops.md': '# Ops\n\nStorage costs, storage review and the quarter budget of the ops team.\n',
};
const QUERIES = ['storage budget', 'team review', '出口配额', 'budget', 'quarter hiring'];

/** The database with every statement's text recorded in `statements`. */
function recorded(db: Db): { db: Db; statements: string[] } {
  const dialect = new PgDialect();
  const statements: string[] = [];
  const spied = new Proxy(db, {
    get(target, property) {
      if (property === 'execute')
        return (query: SQL) => {
          statements.push(dialect.sqlToQuery(query).sql);
          return target.execute(query);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: spied, statements };
}

/** Log lines the search's in-memory index writes (info and above), while `run` runs. */
async function searchLog<T>(
  run: () => Promise<T>,
): Promise<{ result: T; lines: [LogLevel, string, LogFields][] }> {
  const lines: [LogLevel, string, LogFields][] = [];
  const previous = setLogSink((level, message, fields) => {
    if (level !== 'debug' && message.startsWith('search: in-memory index'))
      lines.push([level, message, fields]);
  });
  try {
    return { result: await run(), lines };
  } finally {
    setLogSink(previous);
  }
}

describe('the in-memory BM25 index snapshot in the data folder', () => {
  const roots: string[] = [];
  let rt: Runtime | undefined;
  afterEach(async () => {
    await rt?.close();
    rt = undefined;
  });
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  const newConfig = (): Config => {
    const root = mkdtempSync(join(tmpdir(), 'dropqa-snapshot-'));
    roots.push(root);
    return parseConfig({ dataDir: join(root, 'data'), providers: { ocr: { kind: 'none' } } });
  };
  const open = async (config: Config) => {
    rt = await openRuntime(config);
    return rt;
  };
  const ingest = async (runtime: Runtime, files: Record<string, string>) => {
    const outcomes = await runtime.ingest.ingest(
      Object.entries(files).map(([key, text]) => ({ key, bytes: encode(text) })),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Object.keys(files).map(() => 'ready'));
    return new Map(outcomes.map((o) => [o.key, o.documentId ?? '']));
  };
  /** Every query's hits, whole (ids, scores to the last bit, highlights), from the in-memory index. */
  const rankings = async (runtime: Runtime) => {
    await warmSearchIndex(runtime.db);
    const deps = { ...runtime.qa, access: ALL_COLLECTIONS };
    const hits = [];
    for (const query of QUERIES) hits.push(await fulltextSearch(deps, query, {}, 20));
    return JSON.stringify(hits);
  };
  /** The rankings of an index loaded from the database alone (the snapshot set aside). */
  const fromDatabase = async (runtime: Runtime, config: Config) => {
    const file = searchSnapshotFile(config);
    const kept = existsSync(file) ? readFileSync(file) : undefined;
    rmSync(file, { force: true });
    invalidateMemoryIndex(runtime.db);
    const ranked = await rankings(runtime);
    invalidateMemoryIndex(runtime.db);
    if (kept) writeFileSync(file, kept);
    return ranked;
  };

  it('is written on close and read back at the next start, ranking exactly as a database load', async () => {
    const config = newConfig();
    const first = await open(config);
    await ingest(first, FILES);
    const before = await rankings(first);
    expect(existsSync(searchSnapshotFile(config))).toBe(false);
    await first.close();
    rt = undefined;
    expect(existsSync(searchSnapshotFile(config))).toBe(true);

    const second = await open(config);
    const { result: restored, lines } = await searchLog(() => rankings(second));
    expect(lines.map(([, message, fields]) => [message, fields.documents])).toEqual([
      ['search: in-memory index read from its snapshot', Object.keys(FILES).length],
    ]);
    expect(restored).toBe(before);
    expect(restored).toBe(await fromDatabase(second, config));
    expect(JSON.parse(restored)[2][0].content).toContain('稀土出口配额');
  });

  it('loads what changed since it was written: a new version, a rename, a deletion, a re-analysis in place', async () => {
    const config = newConfig();
    const first = await open(config);
    const ids = await ingest(first, FILES);
    await first.reanalysis?.done;
    // The policy as an older analysis indexed it (Postgres' `simple` parser keeps a CJK run whole).
    await first.db.execute(sql`UPDATE nodes SET search_vector = to_tsvector('simple', coalesce(content, title, ''))
      WHERE document_id = ${ids.get('uploads/policy.md')}::uuid`);
    await first.db.execute(sql`UPDATE document_versions SET analyzer_version = NULL
      WHERE document_id = ${ids.get('uploads/policy.md')}::uuid`);
    const stale = JSON.parse(await rankings(first));
    expect(stale[2]).toEqual([]);
    await first.close();

    // Changed while the index was not loaded: nothing writes the snapshot meanwhile.
    const second = await open(config);
    expect(await second.reanalysis?.done).toMatchObject({ versions: 1 });
    await ingest(second, {
      'uploads/plan.md': `${FILES['uploads/plan.md']}\nA second version about the storage budget.\n`,
    });
    await renameDocument(second.db, second.store, {
      fromKey: 'uploads/a.md',
      toKey: 'uploads/z.md',
      bytes: encode(FILES['uploads/a.md'] ?? ''),
    });
    await deleteDocument(second.db, second.store, ids.get('uploads/gone.md') ?? '');
    const { result: caughtUp, lines } = await searchLog(() => rankings(second));
    expect(lines.map(([, message, fields]) => [message, fields.loaded, fields.dropped])).toEqual([
      ['search: in-memory index read from its snapshot', undefined, undefined],
      ['search: in-memory index brought up to date', 3, 1],
    ]);
    expect(caughtUp).toBe(await fromDatabase(second, config));
    const hits = JSON.parse(caughtUp);
    expect(hits[2][0].content).toContain('稀土出口配额');
    // The tie now puts b.md before the renamed z.md (a.md came first before).
    const shared = hits[0].filter((h: { content: string }) =>
      h.content.startsWith('The storage budget is reviewed'),
    );
    expect(shared.map((h: { documentId: string }) => h.documentId)).toEqual([
      ids.get('uploads/b.md'),
      ids.get('uploads/a.md'),
    ]);
  });

  it('falls back to the database, with a warning, when the snapshot is damaged', async () => {
    const config = newConfig();
    const first = await open(config);
    await ingest(first, FILES);
    const expected = await rankings(first);
    await first.close();
    const file = searchSnapshotFile(config);
    const bytes = readFileSync(file);
    for (const damage of ['corrupt', 'truncated'] as const) {
      const damaged = Buffer.from(bytes);
      const middle = Math.floor(bytes.length / 2);
      if (damage === 'corrupt') damaged[middle] = (damaged[middle] ?? 0) ^ 0xff;
      writeFileSync(file, damage === 'corrupt' ? damaged : damaged.subarray(0, bytes.length - 40));
      const runtime = await open(config);
      const { result, lines } = await searchLog(() => rankings(runtime));
      expect(
        lines.map(([level, message]) => [level, message]),
        damage,
      ).toEqual([['warn', 'search: in-memory index snapshot not used; loading from the database']]);
      expect(result, damage).toBe(expected);
      await runtime.close();
      rt = undefined;
      // Written again on close: the next start reads it.
      expect(readFileSync(file).equals(bytes), damage).toBe(true);
    }
  });

  it('answers the first search after a start from the snapshot, not ranked in SQL', async () => {
    const config = newConfig();
    const first = await open(config);
    await ingest(first, FILES);
    const expected = JSON.parse(await rankings(first))[0];
    await first.close();
    const second = await open(config);
    const { db, statements } = recorded(second.db);
    keepMemoryIndexSnapshot(db, searchSnapshotFile(config));
    const hits = await fulltextSearch(
      { ...second.qa, db, access: ALL_COLLECTIONS },
      QUERIES[0] ?? '',
      {},
      20,
    );
    expect(JSON.parse(JSON.stringify(hits))).toEqual(expected);
    expect(statements.some((text) => text.includes('ts_rank('))).toBe(false);
    // No leaves loaded from the database (the feedback step still reads its top hits' vectors).
    expect(statements.some((text) => text.includes('n.gram_count AS gl'))).toBe(false);
  });
});

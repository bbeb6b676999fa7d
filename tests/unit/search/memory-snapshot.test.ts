import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Bm25MemoryIndex } from '#shared/search/memory-index.ts';
import {
  readIndexSnapshot,
  SNAPSHOT_FORMAT,
  SnapshotUnusableError,
  writeIndexSnapshot,
} from '#shared/search/memory-snapshot.ts';

const params = { k1: 1.2, b: 0.75, titleWeight: 2 };
const WORDS = ['budget', 'team', 'plan', 'cost', 'storage', '预算', '预', '算', 'hiring', 'review'];

/** A deterministic corpus: `docs` documents of 3-9 leaves, terms drawn from WORDS plus a rare one per leaf. */
function corpus(docs: number, seed = 7) {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  return Array.from({ length: docs }, (_, d) => ({
    id: `doc-${d}`,
    key: `folder/${String.fromCharCode(97 + next(26))}-${d}.md`,
    collection: d % 3 === 0 ? 'hr' : 'default',
    leaves: Array.from({ length: 3 + next(7) }, (_, i) => {
      const terms = new Map<string, { tf: number; titleTf: number }>();
      for (let t = 0; t < 4; t++) {
        const tf = 1 + next(4);
        terms.set(WORDS[next(WORDS.length)] ?? 'x', { tf, titleTf: next(2) ? tf : 0 });
      }
      terms.set(`rare${d}x${i}`, { tf: 1, titleTf: 0 });
      return { id: `${d}-${i}`, ordinal: i, dl: 5 + next(40), gl: next(5), terms };
    }),
  }));
}

function indexOf(docs: ReturnType<typeof corpus>): Bm25MemoryIndex {
  const index = new Bm25MemoryIndex();
  for (const doc of docs)
    index.addDocument(doc.id, 1, doc.leaves, {
      collection: doc.collection,
      key: doc.key,
      analyzerVersion: 2,
    });
  return index;
}

const QUERIES = [
  ['budget', 'team'],
  ['预算', '预', '算'],
  ['rare3x1', 'cost'],
  ['storage', 'review', 'hiring', 'plan'],
];
const rankings = (index: Bm25MemoryIndex, scope?: { collections: string[] }) =>
  QUERIES.map((terms) =>
    index.rank(
      terms.map((term) => ({ term, weight: 1 })),
      25,
      params,
      scope,
    ),
  );

describe('Bm25MemoryIndex images', () => {
  it('ranks from its image exactly as the index it was taken of, dead leaves left out', () => {
    const docs = corpus(60);
    const index = indexOf(docs);
    for (let d = 0; d < 60; d += 7) index.removeDocument(`doc-${d}`);
    index.addDocument('doc-1', 2, corpus(1, 99)[0]?.leaves ?? [], { key: 'renamed.md', analyzerVersion: 2 });
    const image = index.toImage();
    expect(image.nodeIds.length).toBe(index.size());
    const copy = Bm25MemoryIndex.fromImage(image);
    expect(rankings(copy)).toEqual(rankings(index));
    expect(rankings(copy, { collections: ['hr'] })).toEqual(rankings(index, { collections: ['hr'] }));
    expect(copy.versions()).toEqual(index.versions());
  });

  it('keeps changing after it was read back: added, replaced and removed documents', () => {
    const docs = corpus(40);
    const restored = Bm25MemoryIndex.fromImage(indexOf(docs).toImage());
    const direct = indexOf(docs);
    for (const index of [restored, direct]) {
      index.removeDocument('doc-5');
      const [fresh] = corpus(1, 3);
      index.addDocument('doc-9', 2, fresh?.leaves ?? [], { key: 'doc-9.md' });
      index.addDocument('new', 1, corpus(1, 11)[0]?.leaves ?? [], { key: 'new.md' });
    }
    expect(rankings(restored)).toEqual(rankings(direct));
  });
  it('compacts postings it read back once most of its leaves are gone', () => {
    const big = () => {
      const index = new Bm25MemoryIndex();
      for (let d = 0; d < 30; d++)
        index.addDocument(
          `d${d}`,
          1,
          Array.from({ length: 800 }, (_, i) => ({
            id: `d${d}-${i}`,
            dl: 3 + (i % 7),
            terms: new Map([
              ['common', { tf: 1 + (i % 3), titleTf: 0 }],
              [`t${i % 50}`, { tf: 1, titleTf: 0 }],
            ]),
          })),
        );
      return index;
    };
    const restored = Bm25MemoryIndex.fromImage(big().toImage());
    const direct = big();
    for (const index of [restored, direct]) for (let d = 0; d < 20; d++) index.removeDocument(`d${d}`);
    const query = [
      { term: 'common', weight: 1 },
      { term: 't7', weight: 1 },
    ];
    expect(restored.size()).toBe(10 * 800);
    expect(restored.rank(query, 30, params)).toEqual(direct.rank(query, 30, params));
    expect(restored.toImage().postings).toEqual(direct.toImage().postings);
  });
});

describe('index snapshot files', () => {
  const root = mkdtempSync(join(tmpdir(), 'dropqa-snapshot-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const stamp = { format: SNAPSHOT_FORMAT, analyzerVersion: 2, fingerprint: '60:-12345' };

  it('reads back what it wrote: the same rankings, stamp and documents', async () => {
    const index = indexOf(corpus(80));
    const file = join(root, 'a', 'bm25.snapshot');
    await writeIndexSnapshot(file, index.toImage(), stamp);
    const read = await readIndexSnapshot(file);
    expect(read.stamp).toEqual(stamp);
    expect(rankings(Bm25MemoryIndex.fromImage(read.image))).toEqual(rankings(index));
    expect(Bm25MemoryIndex.fromImage(read.image).versions()).toEqual(index.versions());
  });

  it('refuses a missing, truncated, corrupt or foreign file', async () => {
    const file = join(root, 'b.snapshot');
    const unusable = async () => {
      const error = await readIndexSnapshot(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SnapshotUnusableError);
      return error as SnapshotUnusableError;
    };
    expect((await unusable()).missing).toBe(true);
    await writeIndexSnapshot(file, indexOf(corpus(20)).toImage(), stamp);
    const bytes = readFileSync(file);
    // One byte changed anywhere past the prefix: the postings, a length, a leaf id.
    for (const at of [40, Math.floor(bytes.length / 2), bytes.length - 3]) {
      const corrupt = Buffer.from(bytes);
      corrupt[at] = (corrupt[at] ?? 0) ^ 0x10;
      writeFileSync(file, corrupt);
      expect((await unusable()).message, `byte ${at}`).toMatch(/checksum/);
    }
    writeFileSync(file, bytes);
    truncateSync(file, bytes.length - 100);
    expect((await unusable()).message).toMatch(/checksum|cut short/);
    writeFileSync(file, 'not a snapshot at all');
    expect((await unusable()).message).toMatch(/not a snapshot/);
    writeFileSync(file, bytes);
    await expect(readIndexSnapshot(file)).resolves.toBeDefined();
  });

  it('replaces the file whole, leaving no temporary file', async () => {
    const file = join(root, 'c.snapshot');
    await writeIndexSnapshot(file, indexOf(corpus(5)).toImage(), stamp);
    await writeIndexSnapshot(file, indexOf(corpus(9)).toImage(), { ...stamp, fingerprint: '9:1' });
    expect((await readIndexSnapshot(file)).stamp.fingerprint).toBe('9:1');
    expect(() => readFileSync(`${file}.tmp`)).toThrow();
  });
});

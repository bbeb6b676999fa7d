import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relativeReader } from '#shared/pipeline/relative-reader.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';

describe('relativeReader', () => {
  let dir: string;
  let store: LocalBlobStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropqa-rel-'));
    store = new LocalBlobStore(dir);
    await store.put('notes/img/a.png', 'A');
    await store.put('secret.txt', 'S');
    await store.put('top.png', 'T');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a file beside the document', async () => {
    const read = relativeReader(store, 'notes/doc.md');
    expect(new TextDecoder().decode(await read('img/a.png'))).toBe('A');
  });

  it('returns undefined for a missing file', async () => {
    expect(await relativeReader(store, 'notes/doc.md')('img/none.png')).toBeUndefined();
  });

  it('never reads outside the document folder', async () => {
    const read = relativeReader(store, 'notes/doc.md');
    expect(await read('../secret.txt')).toBeUndefined();
    expect(await read('img/../../secret.txt')).toBeUndefined();
    expect(await read('/secret.txt')).toBeUndefined();
  });

  it('reads from the bucket root for a top-level document but not above it', async () => {
    const read = relativeReader(store, 'doc.md');
    expect(new TextDecoder().decode(await read('top.png'))).toBe('T');
    expect(await read('../x')).toBeUndefined();
  });
});

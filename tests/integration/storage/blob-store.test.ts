import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '#shared/errors.ts';
import { contentHash } from '#shared/pipeline/unchanged.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { S3BlobStore } from '#shared/storage/s3.ts';
import { stageStream } from '#shared/storage/staging.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { startS3rver } from './s3rver.ts';

interface Harness {
  /** A store over an empty bucket, listing in pages of `pageSize`. */
  store(pageSize: number): Promise<BlobStore>;
  close(): Promise<void>;
}

async function localHarness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'dropqa-blob-'));
  let n = 0;
  return {
    store: async () => new LocalBlobStore(join(dir, `bucket-${n++}`)),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

async function s3Harness(): Promise<Harness> {
  const server = await startS3rver(Array.from({ length: 8 }, (_, i) => `bucket-${i}`));
  let n = 0;
  return {
    store: async (pageSize) =>
      new S3BlobStore({
        bucket: `bucket-${n++}`,
        region: 'us-east-1',
        endpoint: server.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        pageSize,
      }),
    close: () => server.close(),
  };
}

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const info of store.list(prefix)) keys.push(info.key);
  return keys;
}

describe.each([
  { name: 'LocalBlobStore', open: localHarness },
  { name: 'S3BlobStore', open: s3Harness },
])('$name', ({ open }) => {
  let harness: Harness;
  let store: BlobStore;

  beforeAll(async () => {
    harness = await open();
    store = await harness.store(1000);
  });
  afterAll(() => harness.close());

  it('returns the bytes put under a key, text or binary', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255, 254]);
    await store.put('put/bin.dat', bytes);
    await store.put('put/text.md', '# 标题\n');
    expect(Array.from(await store.get('put/bin.dat'))).toEqual([0, 1, 2, 255, 254]);
    expect(new TextDecoder().decode(await store.get('put/text.md'))).toBe('# 标题\n');
  });

  it('replaces an object when the same key is put again', async () => {
    await store.put('put/again.txt', 'one');
    await store.put('put/again.txt', 'two, longer');
    expect(new TextDecoder().decode(await store.get('put/again.txt'))).toBe('two, longer');
  });

  it('writes a staged file as an object by streaming it (putFile), byte for byte, with its type', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dropqa-putfile-'));
    try {
      const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) % 256);
      const staged = await stageStream(dir, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
      expect(staged).toMatchObject({ size: bytes.length, hash: contentHash(bytes) });
      await store.putFile('put/staged.pdf', staged, { contentType: 'application/pdf' });
      expect(Buffer.from(await store.get('put/staged.pdf')).equals(Buffer.from(bytes))).toBe(true);
      expect(await store.head('put/staged.pdf')).toMatchObject({
        size: bytes.length,
        contentType: 'application/pdf',
      });
      const missing = { ...staged, path: join(dir, 'missing.upload') };
      await expect(store.putFile('put/none.md', missing)).rejects.toThrow(/ENOENT/);
      expect(await keysOf(store, 'put/')).not.toContain('put/none.md');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('throws NotFoundError when getting a missing key', async () => {
    await expect(store.get('missing/nothing.md')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reports size and content type from head, and undefined for a missing key', async () => {
    await store.put('head/pic.png', new Uint8Array(10), { contentType: 'image/png' });
    expect(await store.head('head/pic.png')).toMatchObject({
      key: 'head/pic.png',
      size: 10,
      contentType: 'image/png',
    });
    expect(await store.head('head/none.png')).toBeUndefined();
  });

  it('deletes a key and ignores deleting a missing one', async () => {
    await store.put('del/one.txt', 'x');
    await store.delete('del/one.txt');
    await store.delete('del/one.txt');
    expect(await store.head('del/one.txt')).toBeUndefined();
    expect(await keysOf(store, 'del/')).toEqual([]);
  });

  // Order is S3's (byte order) but not part of the interface: s3rver lists in folder order.
  it('lists the keys under a string prefix, not only whole folders', async () => {
    const keys = [
      'list/b.md',
      'list/a/2.md',
      'list/a/1.md',
      'list/a-b.md',
      'list/ab/c.md',
      'listing.md',
      'other/x.md',
    ];
    for (const key of keys) await store.put(key, key);
    expect((await keysOf(store, 'list/')).sort()).toEqual([
      'list/a-b.md',
      'list/a/1.md',
      'list/a/2.md',
      'list/ab/c.md',
      'list/b.md',
    ]);
    expect((await keysOf(store, 'list/a')).sort()).toEqual([
      'list/a-b.md',
      'list/a/1.md',
      'list/a/2.md',
      'list/ab/c.md',
    ]);
    expect(await keysOf(store, 'list')).toHaveLength(6);
    const sizes: number[] = [];
    for await (const info of store.list('list/b')) sizes.push(info.size);
    expect(sizes).toEqual([9]);
  });

  // Paged with keys whose byte order matches folder order: s3rver walks its folders depth-first, so
  // across pages it repeats keys when '-' and '/' interleave; real S3 pages in byte order.
  it('pages through more objects than one page holds', async () => {
    const paged = await harness.store(4);
    const keys = Array.from({ length: 11 }, (_, i) => `p/${String(i).padStart(2, '0')}.txt`);
    await Promise.all(keys.map((key) => paged.put(key, 'x')));
    expect(await keysOf(paged, 'p/')).toEqual(keys);
    expect(await keysOf(paged, '')).toEqual(keys);
  });

  it('deletes everything under a prefix and returns the count, leaving other keys', async () => {
    const scoped = await harness.store(2);
    for (const key of [
      'documents/d1/v1/a.png',
      'documents/d1/v1/content.md',
      'documents/d1/v2/b.png',
      'documents/d10/x.md',
    ])
      await scoped.put(key, 'x');
    expect(await scoped.deletePrefix('documents/d1/')).toBe(3);
    expect(await keysOf(scoped, '')).toEqual(['documents/d10/x.md']);
    expect(await scoped.deletePrefix('documents/none/')).toBe(0);
  });

  it('rejects unsafe keys before touching the bucket', async () => {
    await expect(store.put('../escape.txt', 'x')).rejects.toBeInstanceOf(ValidationError);
    await expect(store.get('/etc/passwd')).rejects.toBeInstanceOf(ValidationError);
    await expect(store.head('a\\b')).rejects.toBeInstanceOf(ValidationError);
    await expect(store.delete('a/../../b')).rejects.toBeInstanceOf(ValidationError);
    await expect(keysOf(store, '../')).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('LocalBlobStore on disk', () => {
  it('leaves no temporary files and prunes emptied folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dropqa-blob-'));
    try {
      const store = new LocalBlobStore(dir);
      await store.put('a/b/c.txt', 'x');
      expect(await readdir(join(dir, 'a', 'b'))).toEqual(['c.txt']);
      await store.delete('a/b/c.txt');
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Our own guarantee (temp file + rename). On S3 a PUT is atomic by S3's; the fake S3 (s3rver)
  // writes in place, so racing it tests the fake, not the store.
  it('keeps the last complete write when writers race on one key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dropqa-blob-'));
    try {
      const store = new LocalBlobStore(dir);
      const big = 'y'.repeat(200_000);
      await Promise.all([
        store.put('race/k.txt', big),
        store.put('race/k.txt', 'small'),
        store.put('race/k.txt', big),
      ]);
      const text = new TextDecoder().decode(await store.get('race/k.txt'));
      expect([big, 'small']).toContain(text);
      expect(await keysOf(store, 'race/')).toEqual(['race/k.txt']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists in key byte order, as S3 does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dropqa-blob-'));
    try {
      const store = new LocalBlobStore(dir);
      for (const key of ['a/2', 'b', 'a/1', 'a-z', 'A']) await store.put(key, 'x');
      expect(await keysOf(store, '')).toEqual(['A', 'a-z', 'a/1', 'a/2', 'b']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

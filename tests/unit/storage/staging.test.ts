import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '#shared/pipeline/unchanged.ts';
import { clearStaging, removeStaged, stageStream, stagingDir } from '#shared/storage/staging.ts';

describe('staging', () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dropqa-staging-'));
    dir = stagingDir(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes a stream to a file under <dataDir>/staging with its size and SHA-256', async () => {
    const parts = [Buffer.from('# Title\n\n'), Buffer.alloc(200_000, 0x7a), Buffer.from('\nend\n')];
    const heard: number[] = [];
    const staged = await stageStream(dir, Readable.from(parts), (bytes) => heard.push(bytes));
    const whole = Buffer.concat(parts);
    expect(staged.path.startsWith(join(root, 'staging'))).toBe(true);
    expect(staged.size).toBe(whole.length);
    expect(staged.hash).toBe(contentHash(whole));
    expect(heard.reduce((a, b) => a + b, 0)).toBe(whole.length);
    expect((await readFile(staged.path)).equals(whole)).toBe(true);
    await removeStaged([staged, staged]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves no file when the source is destroyed midway', async () => {
    const source = new PassThrough();
    const staging = stageStream(dir, source);
    source.write(Buffer.alloc(100_000, 1));
    setTimeout(() => source.destroy(new Error('client went away')), 20);
    await expect(staging).rejects.toThrow(/client went away/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('empties the folder on clearStaging and tolerates a missing one', async () => {
    await stageStream(dir, Readable.from([Buffer.from('a')]));
    await writeFile(join(dir, 'other.upload'), 'b');
    await clearStaging(dir);
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
    await clearStaging(dir);
  });
});

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/dropqa.js');

describe('dropqa lifecycle commands', () => {
  let dir: string;
  const dropqa = async (...args: string[]) => {
    const env = { ...process.env, DROPQA_DATA_DIR: join(dir, 'data') };
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, cwd: dir });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const write = (text: string) => writeFileSync(join(dir, 'docs', 'meeting.md'), text);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-cli-life-'));
    mkdirSync(join(dir, 'docs'));
    write('# Meeting\n\nThe team meeting is on Monday morning.\n');
    expect((await dropqa('ingest', 'docs')).stdout).toMatch(/1 scanned: 1 indexed, 0 unchanged, 0 failed/);
    write('# Meeting\n\nThe team meeting is on Tuesday afternoon.\n');
    expect((await dropqa('ingest', 'docs')).stdout).toMatch(/1 scanned: 1 indexed/);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers from the current version, and from version 1 with --version 1', async () => {
    const current = await dropqa('ask', 'When is the team meeting?', '--mode', 'standard');
    expect(current.stdout).toContain('Tuesday');
    const pinned = await dropqa('ask', 'When is the team meeting?', '--mode', 'standard', '--version', '1');
    expect(pinned.stdout).toContain('Monday');
    expect(pinned.stdout).not.toContain('Tuesday');
  }, 120_000);

  it('lists versions with hash and stats, and reindexes without a new version when nothing changed', async () => {
    const versions = await dropqa('versions', 'meeting.md');
    expect(versions.code).toBe(0);
    expect(versions.stdout).toMatch(/\* v2 {2}ready .* sha256 [0-9a-f]{12}/);
    expect(versions.stdout).toMatch(/ {2}v1 {2}ready/);
    expect(versions.stdout).toMatch(/1 sections, 1 paragraphs/);
    const reindex = await dropqa('reindex', 'meeting.md');
    expect(reindex.stdout).toContain('uploads/meeting.md: unchanged, version 2 stays current');
  }, 120_000);

  it('prints what changed between the versions, with word changes marked', async () => {
    const diff = await dropqa('diff', 'meeting.md');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('uploads/meeting.md: version 1 → 2');
    expect(diff.stdout).toContain('paragraphs: +0 -0 ~1');
    expect(diff.stdout).toContain(
      '~ paragraph: The team meeting is on [-Monday morning-]{+Tuesday afternoon+}.',
    );
    const json = JSON.parse(
      (await dropqa('diff', 'meeting.md', '--from', '1', '--to', '2', '--json')).stdout,
    );
    expect(json.summary.paragraphs).toEqual({ added: 0, removed: 0, changed: 1 });
    const bad = await dropqa('diff', 'meeting.md', '--from', '2', '--to', '2');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('choose two different versions');
  }, 120_000);

  it('shows the status, deletes by key, and then finds nothing', async () => {
    expect((await dropqa('status')).stdout).toMatch(
      /v2 {2}uploads\/meeting\.md {2}ready\n1 document\(s\): 1 ready/,
    );
    expect((await dropqa('delete', 'meeting.md')).stdout).toMatch(/^deleted uploads\/meeting\.md \(/);
    const missing = await dropqa('versions', 'meeting.md');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No document with id or key meeting.md');
  }, 120_000);
});

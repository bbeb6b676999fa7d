import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/dropqa.js');
const READY = 55;

/** The document lines of a `dropqa status` (version or '-', two spaces, key, two spaces, status). */
const documentLines = (stdout: string) => stdout.split('\n').filter((line) => /^ *(v\d+|-) {2}\S/.test(line));

describe('dropqa status over more documents than it lists', () => {
  let dir: string;
  const dropqa = async (...args: string[]) => {
    const env = { ...process.env, DROPQA_DATA_DIR: join(dir, 'data') };
    // `ingest` exits 1 when a file failed; its report is what is checked.
    const { stdout } = await run(process.execPath, [BIN, ...args], { env, cwd: dir }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    return stdout;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-cli-status-'));
    mkdirSync(join(dir, 'docs'));
    for (let i = 0; i < READY; i++) {
      writeFileSync(
        join(dir, 'docs', `note-${String(i).padStart(2, '0')}.md`),
        `# Note ${i}\n\nItem ${i} of the list.\n`,
      );
    }
    // A ZIP header and nothing of an archive after it: a damaged Word file, which fails.
    writeFileSync(join(dir, 'docs', 'broken.docx'), 'PK\x03\x04\x14\x00\x00\x00garbage');
    expect(await dropqa('ingest', 'docs')).toMatch(/56 scanned: 55 indexed, 0 unchanged, 1 failed/);
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the documents changed last and every one not ready, and counts the rest', async () => {
    const stdout = await dropqa('status');
    expect(stdout).toMatch(/^56 document\(s\): (55 ready, 1 failed|1 failed, 55 ready)$/m);
    const unlisted = Number(
      /; (\d+) other ready document\(s\) not listed \(dropqa status --all\)/.exec(stdout)?.[1],
    );
    expect(unlisted).toBeGreaterThanOrEqual(5);
    const lines = documentLines(stdout);
    expect(lines).toHaveLength(56 - unlisted);
    expect(lines.filter((line) => line.includes('uploads/broken.docx  failed'))).toHaveLength(1);
  }, 120_000);

  it('lists every document with --all, and every one of a status with --status', async () => {
    const all = await dropqa('status', '--all');
    expect(documentLines(all)).toHaveLength(56);
    expect(all).not.toContain('not listed');
    expect(documentLines(await dropqa('status', '--status', 'ready'))).toHaveLength(READY);
  }, 120_000);
});

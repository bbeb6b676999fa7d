import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { loadConfig } from '#shared/config/index.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/dropqa.js');

describe('dropqa and its data folder', () => {
  let dir: string;
  /** The CLI in `cwd`, with DROPQA_DATA_DIR only when given (never inherited from the test's environment). */
  const dropqa = async (cwd: string, dataDir: string | undefined, ...args: string[]) => {
    const { DROPQA_DATA_DIR: _inherited, ...env } = process.env;
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
        cwd,
        env: dataDir ? { ...env, DROPQA_DATA_DIR: dataDir } : env,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-data-folder-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('does not create ./.dropqa for status and says where it looked and how to point elsewhere', async () => {
    const cwd = join(dir, 'empty');
    mkdirSync(cwd);
    const { code, stdout, stderr } = await dropqa(cwd, undefined, 'status');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`No DropQA data in ${join(cwd, '.dropqa')}`);
    expect(stderr).toContain('the default ./.dropqa');
    expect(stderr).toContain('DROPQA_DATA_DIR');
    expect(existsSync(join(cwd, '.dropqa'))).toBe(false);
  });

  it('does not create the folder DROPQA_DATA_DIR names for a search', async () => {
    const named = join(dir, 'missing-data');
    const { code, stderr } = await dropqa(dir, named, 'search', 'budget');
    expect(code).toBe(1);
    expect(stderr).toContain(`No DropQA data in ${named} (from DROPQA_DATA_DIR)`);
    expect(existsSync(named)).toBe(false);
  });

  it('has the running server follow the folder dropqa watch names', async () => {
    const dataDir = join(dir, 'served');
    const notes = join(dir, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'plan.md'), '# Plan\n\nThe zeppelin launch is in March.\n');
    const server = await startServer(
      loadConfig({ env: {}, overrides: { dataDir, server: { port: 0 }, watch: { debounceMs: 50 } } }),
    );
    try {
      const { code, stdout, stderr } = await dropqa(dir, dataDir, 'watch', notes);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`the server at ${server.url} now watches ${notes} as watch/notes/`);
      // The server follows the folder and ingests its file: a document, found by search.
      type Watched = { folders: { directory: string; documents: number; pending: number }[] };
      let watched: Watched;
      for (;;) {
        watched = (await (await fetch(`${server.url}/api/watch`)).json()) as Watched;
        if (watched.folders[0]?.documents === 1 && watched.folders[0].pending === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(watched.folders).toEqual([expect.objectContaining({ directory: notes, documents: 1 })]);
      const found = await dropqa(dir, dataDir, 'search', 'zeppelin', '--kind', 'keyword');
      expect(found.stdout).toMatch(/^1\. plan\.md > Plan .*\n.*zeppelin/);
      // Without the lock's control key, the server refuses to read another folder.
      const refused = await fetch(`${server.url}/api/watch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-dropqa-client': 'test' },
        body: JSON.stringify({ directory: dir }),
      });
      expect(refused.status).toBe(403);
    } finally {
      await server.close();
    }
  }, 240_000);
});

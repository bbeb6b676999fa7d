import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { loadConfig } from '#shared/config/index.ts';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/dropqa.js');

describe('dropqa CLI', () => {
  let dir: string;
  const withEnv = async (extra: Record<string, string>, ...args: string[]) => {
    const env = { ...process.env, DROPQA_DATA_DIR: join(dir, 'data'), ...extra };
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, cwd: dir });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const dropqa = (...args: string[]) => withEnv({}, ...args);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-cli-'));
    const docs = join(dir, 'docs');
    mkdirSync(join(docs, 'zh'), { recursive: true });
    writeFileSync(join(docs, 'plan.md'), '# Goals\n\nThe main goal is a unified data platform.\n');
    writeFileSync(
      join(docs, 'zh', '规划.md'),
      '# 基础设施\n\n## 云平台\n\n预计投入500万预算用于容器化改造。\n',
    );
    writeFileSync(join(docs, 'broken.md'), new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 1, 2, 3]));
    writeFileSync(join(docs, 'zh', 'bundle.zip'), new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]));
    writeFileSync(join(docs, 'notes.xyz'), 'plain words under a name DropQA does not know\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ingests a folder with one JSON line per file and a failing exit code when a file failed', async () => {
    const { code, stdout } = await dropqa('ingest', 'docs', '--json');
    expect(code).toBe(1);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; status: string; version: number; error: string | null });
    const byKey = Object.fromEntries(lines.map((l) => [l.key, l]));
    expect(byKey['uploads/plan.md']).toMatchObject({ status: 'ready', version: 1, error: null });
    expect(byKey['uploads/zh/规划.md']).toMatchObject({ status: 'ready', version: 1 });
    expect(byKey['uploads/broken.md']?.status).toBe('failed');
    expect(byKey['uploads/broken.md']?.error).toMatch(/broken\.md/);
    // Files of other types get a line too, saying what they are and what DropQA reads.
    expect(lines).toHaveLength(5);
    expect(byKey['uploads/zh/bundle.zip']).toMatchObject({ status: 'unsupported', document_id: null });
    expect(byKey['uploads/zh/bundle.zip']?.error).toMatch(
      /bundle\.zip is a ZIP archive, which DropQA does not read; DropQA reads \.md, \.txt, .*\.xlsx, \.xls/,
    );
    expect(byKey['uploads/notes.xyz']?.error).toMatch(
      /notes\.xyz is a \.xyz file, which DropQA does not read/,
    );
  });

  it('reports unchanged files on a second ingest and summarises failures in words', async () => {
    const { stdout } = await dropqa('ingest', 'docs');
    expect(stdout).toMatch(/5 scanned: 0 indexed, 2 unchanged, 1 failed, 2 not read \(unsupported type\)\n/);
    expect(stdout).toMatch(/failed {2}uploads\/broken\.md: /);
    expect(stdout).toMatch(/not read {2}uploads\/zh\/bundle\.zip: bundle\.zip is a ZIP archive/);
  });

  it('streams every event of an answer as JSON lines', async () => {
    const { code, stdout } = await dropqa('ask', '云平台的预算是多少？', '--json');
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    expect(events[0]?.type).toBe('meta');
    expect(events.at(-1)?.type).toBe('done');
    const done = events.at(-1)?.data as { response: { answer: string; sources: { section: string }[] } };
    expect(done.response.answer).toContain('500万预算');
    expect(done.response.sources[0]?.section).toContain('云平台');
  });

  it('prints an answer with its sources for people', async () => {
    const { stdout } = await dropqa('ask', 'What is the main goal?');
    expect(stdout).toContain('unified data platform');
    expect(stdout).toMatch(/\[1\] plan\.md > Goals/);
  });

  it('keeps a conversation in `dropqa chat`: follow-ups are resolved, /mode, /new and /exit work', async () => {
    const chat = spawnSync(process.execPath, [BIN, 'chat'], {
      env: { ...process.env, DROPQA_DATA_DIR: join(dir, 'data') },
      cwd: dir,
      input: [
        'What is the main goal?',
        '/mode standard',
        'And what about its budget?',
        '/new',
        '云平台的预算是多少？',
        '/exit',
        'never asked',
      ].join('\n'),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(chat.status).toBe(0);
    const conversations = [...chat.stderr.matchAll(/· conversation ([0-9a-f-]{36})/g)].map((m) => m[1]);
    expect(conversations).toHaveLength(3);
    expect(conversations[1]).toBe(conversations[0]);
    expect(conversations[2]).not.toBe(conversations[0]);
    expect(chat.stderr).toMatch(/mode standard · .*\n/);
    expect(chat.stderr).toMatch(/searched for: And what about main goal's budget\? \(with turn 1\)/);
    expect(chat.stdout).toContain('unified data platform');
    expect(chat.stdout).toContain('500万预算');
    expect(chat.stderr).not.toMatch(/never asked/);

    const follow = await dropqa('ask', 'And its budget?', '--conversation', conversations[2] as string);
    expect(follow.code).toBe(0);
    expect(follow.stderr).toContain(`conversation ${conversations[2]}`);
    expect(follow.stderr).toMatch(/searched for: And 云平台's budget\? \(with turn 1\)/);
  });

  it('searches and prints the configuration with secrets masked', async () => {
    const search = await dropqa('search', 'platform', '--kind', 'fulltext');
    expect(search.stdout).toMatch(/1\. plan\.md > Goals/);
    const bad = await dropqa('search', 'x', '--kind', 'magic');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toBe(
      'error: --kind: Invalid option: expected one of "keyword"|"fulltext"|"semantic"|"hybrid"\n',
    );
    const config = await dropqa('config');
    expect(JSON.parse(config.stdout).server.port).toBe(8787);
  });

  it('reports status loading neither the watcher, the search modules nor zod locales', async () => {
    // A module hook records every file the command loads.
    const loaded = join(dir, 'loaded.txt');
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, url + '\\n'); return next(url, context); }\n`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
    );
    const env = { ...process.env, DROPQA_DATA_DIR: join(dir, 'data') };
    const { stdout } = await run(process.execPath, ['--import', join(dir, 'register.mjs'), BIN, 'status'], {
      env,
      cwd: dir,
    });
    expect(stdout).toMatch(/document\(s\)/);
    const urls = readFileSync(loaded, 'utf8').split('\n');
    expect(
      urls.filter((url) => /node_modules\/(?:chokidar|regexp-tree)\/|zod\/v4\/locales\//.test(url)),
    ).toEqual([]);
  });

  it('stops at once with the setting named when the configuration is bad', async () => {
    const { code, stderr } = await withEnv({ PORT: 'eighty' }, 'config');
    expect(code).toBe(2);
    expect(stderr).toMatch(/server\.port/);
  });

  it('ingests into a collection and answers from one collection with --collection', async () => {
    mkdirSync(join(dir, 'private'), { recursive: true });
    writeFileSync(join(dir, 'private', 'pay.md'), '# Pay\n\nThe heron salary band is confidential.\n');
    const ingest = await dropqa('ingest', 'private', '--collection', 'hr', '--json');
    expect(JSON.parse(ingest.stdout.trim())).toMatchObject({ key: 'collections/hr/pay.md', status: 'ready' });
    const answer = async (collection: string) => {
      const { stdout } = await dropqa(
        'ask',
        'What is the heron salary band?',
        '--collection',
        collection,
        '--json',
      );
      return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}').data.response.answer as string;
    };
    expect(await answer('hr')).toContain('heron salary band');
    expect(await answer('default')).not.toContain('heron salary band');
    const bad = await dropqa('ingest', 'private', '--collection', 'Not One');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--collection: 'Not One' is not a collection name/);
  });

  it('talks to the running server over HTTP instead of opening its database', async () => {
    const server = await startServer(
      loadConfig({ env: {}, overrides: { dataDir: join(dir, 'data'), server: { port: 0 } } }),
    );
    try {
      writeFileSync(join(dir, 'docs', 'new.md'), '# Release\n\nThe release ships in March.\n');
      const ingest = await dropqa('ingest', join('docs', 'new.md'), '--json');
      expect(JSON.parse(ingest.stdout.trim())).toMatchObject({
        key: 'uploads/new.md',
        status: 'ready',
        version: 1,
      });
      const listed = (await (await fetch(`${server.url}/api/documents?q=new.md`)).json()) as {
        items: { key: string }[];
      };
      expect(listed.items.map((d) => d.key)).toEqual(['uploads/new.md']);

      // status and search cost one HTTP call each: no fetch (its first call loads undici, ~0.4 s of
      // CPU), no hono, SSE parser or yaml loaded from node_modules.
      const loaded = join(dir, 'loaded-server.txt');
      writeFileSync(
        join(dir, 'server-hooks.mjs'),
        `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, url + '\\n'); return next(url, context); }\n`,
      );
      writeFileSync(
        join(dir, 'no-fetch.mjs'),
        "import { register } from 'node:module';\nregister('./server-hooks.mjs', import.meta.url);\nglobalThis.fetch = () => { throw new Error('fetch was called'); };\n",
      );
      const env = { ...process.env, DROPQA_DATA_DIR: join(dir, 'data') };
      const viaHttp = (...args: string[]) =>
        run(process.execPath, ['--import', join(dir, 'no-fetch.mjs'), BIN, ...args], { env, cwd: dir });
      expect((await viaHttp('status')).stdout).toMatch(/uploads\/new\.md {2}ready[\s\S]*data: the server at/);
      expect((await viaHttp('search', 'release', '--kind', 'fulltext')).stdout).toMatch(
        /1\. new\.md > Release/,
      );
      const urls = readFileSync(loaded, 'utf8').split('\n');
      expect(urls.filter((url) => /node_modules\/(?:hono|eventsource-parser|yaml)\//.test(url))).toEqual([]);
      const ask = await dropqa('ask', 'When does the release ship?', '--json');
      const done = JSON.parse(ask.stdout.trim().split('\n').at(-1) ?? '{}');
      expect(done.type).toBe('done');
      expect(done.data.response.answer).toContain('March');
      const { stderr } = await dropqa('ask', 'When does the release ship?');
      expect(stderr).toContain('mode auto');
      const into = await dropqa('ingest', join('docs', 'new.md'), '--collection', 'eng', '--json');
      expect(JSON.parse(into.stdout.trim())).toMatchObject({
        key: 'collections/eng/new.md',
        status: 'ready',
      });
      const scoped = await dropqa('ask', 'When does the release ship?', '--collection', 'hr', '--json');
      expect(JSON.parse(scoped.stdout.trim().split('\n').at(-1) ?? '{}').data.response.answer).not.toContain(
        'March',
      );
    } finally {
      await server.close();
    }
  });
});

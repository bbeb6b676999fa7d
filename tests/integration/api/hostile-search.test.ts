import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { loadConfig } from '#shared/config/index.ts';

/**
 * Regular expressions that held the embedded database (and with it every request, /api/health
 * included) for seconds to minutes: refused with a 400 before they reach it, over a real socket,
 * while the server keeps answering.
 */
describe('hostile search patterns', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-hostile-search-'));
    server = await startServer(
      loadConfig({ env: { DROPQA_DATA_DIR: dir, PORT: '0', DROPQA_SEARCH__BM25__MEMORY_INDEX: 'false' } }),
    );
    const paragraphs = Array.from({ length: 400 }, (_, i) => `${'a'.repeat(60)} paragraph ${i}`).join('\n\n');
    const form = new FormData();
    form.append('files', new Blob([`# Many a\n\n${paragraphs}\n`]), 'many-a.md');
    const upload = await fetch(`${server.url}/api/documents/upload`, {
      method: 'POST',
      body: form,
      headers: { 'X-DropQA-Client': 'test' },
    });
    expect(upload.status).toBe(200);
    for (let i = 0; i < 200; i++) {
      const { items } = (await (await fetch(`${server.url}/api/documents`)).json()) as {
        items: { status: string }[];
      };
      if (items[0]?.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (q: string) =>
    fetch(`${server.url}/api/search?${new URLSearchParams({ q, kind: 'keyword', mode: 'regex' })}`);

  it.each(['(a{1,200}){1,200}x', '(a{1,100}){1,100}x', 'a{1,255}x'])(
    'answers %s with a 400 at once and keeps serving',
    async (pattern) => {
      const started = performance.now();
      const [res, health] = await Promise.all([search(pattern), fetch(`${server.url}/api/health`)]);
      const elapsed = performance.now() - started;
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.message).toMatch(/repeats too much/);
      expect(health.status).toBe(200);
      expect(elapsed).toBeLessThan(2_000);
    },
  );

  it('still runs a reasonable regular expression', async () => {
    const res = await search('paragraph 1[0-9]{2}$');
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: unknown[] };
    expect(results.length).toBeGreaterThan(0);
  });

  it('answers a version number no version column can hold with a 400 naming the field', async () => {
    const res = await fetch(`${server.url}/api/search?q=paragraph&version=10000000000`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toMatch(/query\.version/);
    const { items } = (await (await fetch(`${server.url}/api/documents`)).json()) as {
      items: { id: string }[];
    };
    const structure = await fetch(
      `${server.url}/api/documents/${items[0]?.id}/structure?version=10000000000`,
    );
    expect(structure.status).toBe(400);
  });
});

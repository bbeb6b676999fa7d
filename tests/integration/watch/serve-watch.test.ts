import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { HttpBackend } from '#shared/cli/http-backend.ts';
import { parseConfig } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';

/** The local server follows `watch.directories`, and reports them at GET /api/watch. */
describe('the server watching watch.directories', () => {
  let root: string;
  let folder: string;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dropqa-serve-watch-'));
    folder = join(root, 'notes');
    mkdirSync(folder);
    writeFileSync(join(folder, 'before.md'), '# Before\n\nWritten before the server started.\n');
    server = await startServer(
      parseConfig({
        dataDir: join(root, 'data'),
        server: { port: 0 },
        providers: { ocr: { kind: 'none' } },
        watch: { directories: [folder], debounceMs: 150 },
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('makes a saved Markdown file searchable, and reports the folder with its counts', async () => {
    writeFileSync(join(folder, 'saved.md'), '# Parking\n\nVisitors park on level 2 of the garage.\n');
    const deadline = Date.now() + 20_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      const res = await fetch(`${server.url}/api/search?q=visitors%20garage&kind=keyword`);
      const body = (await res.json()) as { results: { content: string }[] };
      found = body.results.some((r) => r.content.includes('level 2'));
      if (!found) await new Promise((r) => setTimeout(r, 100));
    }
    expect(found).toBe(true);
    const status = await new HttpBackend(server.url).watchStatus();
    expect(status.running).toBe(true);
    expect(status.folders).toEqual([
      expect.objectContaining({ directory: folder, prefix: 'watch/notes/', documents: 2 }),
    ]);
  });

  it('refuses to start on a watched folder that does not exist, naming it', async () => {
    await expect(
      startServer(
        parseConfig({
          dataDir: join(root, 'other-data'),
          server: { port: 0 },
          watch: { directories: [join(root, 'missing')] },
        }),
      ),
    ).rejects.toThrow(ConfigError);
  });
});

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

/**
 * A full disk during an upload: the staging write or the bucket write fails with ENOSPC (injected at
 * the file-system calls those writes make). The upload answers 507 saying the server is out of space
 * (before: 400 "malformed multipart request: ENOSPC"), stores nothing, and earlier documents stay.
 */

const disk = vi.hoisted(() => ({ full: undefined as 'staging' | 'bucket' | undefined }));
const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
    errno: -28,
    syscall: 'write',
  });

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    createWriteStream: ((path: string, options?: unknown) =>
      disk.full === 'staging' && String(path).endsWith('.upload')
        ? new Writable({ write: (_chunk, _encoding, done) => done(enospc()) })
        : fs.createWriteStream(path, options as never)) as typeof fs.createWriteStream,
  };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...fs,
    copyFile: (async (from: string, to: string, mode?: number) => {
      if (disk.full === 'bucket') throw enospc();
      return fs.copyFile(from, to, mode);
    }) as typeof fs.copyFile,
  };
});

function upload(name: string, text: string): RequestInit {
  const body = new FormData();
  body.append('files', new Blob([text]), name);
  return { method: 'POST', body };
}

describe('uploads on a full disk', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-full-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
    const first = await app.request(
      '/api/documents/upload',
      upload('kept.md', '# Kept\n\nThe budget is 2 million.\n'),
    );
    expect(first.status).toBe(200);
    await rt.ingest.idle();
  });
  afterAll(async () => {
    disk.full = undefined;
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const documents = async () =>
    ((await (await app.request('/api/documents')).json()) as { items: { key: string; status: string }[] })
      .items;

  for (const where of ['staging', 'bucket'] as const) {
    it(`answers 507 out of space when the ${where} write fails with ENOSPC, storing nothing`, async () => {
      disk.full = where;
      let res: Response;
      try {
        res = await app.request(
          '/api/documents/upload',
          upload(`lost-${where}.md`, '# Lost\n\nNever stored.\n'),
        );
      } finally {
        disk.full = undefined;
      }
      expect(res.status).toBe(507);
      expect(((await res.json()) as { error: unknown }).error).toMatchObject({
        code: 'insufficient_storage',
        message: expect.stringMatching(/out of disk space/),
      });
      await rt.ingest.idle();
      expect(await documents()).toEqual([
        expect.objectContaining({ key: 'uploads/kept.md', status: 'ready' }),
      ]);
      expect(await rt.store.head(`uploads/lost-${where}.md`)).toBeUndefined();
      const staging = join(dir, 'staging');
      expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
      expect(readdirSync(join(dir, 'bucket', 'uploads')).filter((f) => f.includes('lost'))).toEqual([]);
    });
  }
});

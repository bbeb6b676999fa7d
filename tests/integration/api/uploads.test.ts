import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { loadConfig } from '#shared/config/index.ts';

const CLIENT = { 'X-DropQA-Client': 'test' };

/** Files under the bucket folder, relative to it. */
function bucketFiles(dir: string): string[] {
  const root = join(dir, 'bucket');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1));
}

/** Files left in the staging folder (uploads in flight). */
function stagedFiles(dir: string): string[] {
  const root = join(dir, 'staging');
  return existsSync(root) ? readdirSync(root) : [];
}

/** A multipart body of one file of `size` bytes, sent in 64 KiB chunks as the server pulls them. */
function streamedUpload(boundary: string, name: string, size: number) {
  const sent = { bytes: 0 };
  const chunk = new Uint8Array(64 * 1024).fill(0x62);
  async function* generate() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n\r\n`,
    );
    while (sent.bytes < size) {
      sent.bytes += chunk.length;
      yield chunk;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { body: ReadableStream.from(generate()), sent };
}

describe('uploads over HTTP', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-uploads-'));
    // What a server stopped mid-upload left behind.
    mkdirSync(join(dir, 'staging'), { recursive: true });
    writeFileSync(join(dir, 'staging', 'left-by-a-crash.upload'), 'half an upload');
    server = await startServer(
      loadConfig({
        env: {
          DROPQA_DATA_DIR: dir,
          PORT: '0',
          DROPQA_LIMITS__MAX_FILE_BYTES: '1000000',
          DROPQA_LIMITS__MAX_UPLOAD_BYTES: '2500000',
        },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (files: [string, Uint8Array | string][]) => {
    const form = new FormData();
    for (const [name, content] of files)
      form.append('files', new Blob([content as Uint8Array<ArrayBuffer>]), name);
    return fetch(`${server.url}/api/documents/upload`, { method: 'POST', body: form, headers: CLIENT });
  };

  it('refuses a file over limits.maxFileBytes with a 413 and leaves nothing in the bucket', async () => {
    const res = await upload([
      ['small.md', '# Small\n\nFine.\n'],
      ['big.md', new Uint8Array(1_500_000).fill(0x61)],
    ]);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('payload_too_large');
    expect(body.error.message).toMatch(/big\.md is larger than 1000000 bytes \(limits\.maxFileBytes\)/);
    expect(body.error).toMatchObject({ reason: 'file_too_large', params: { bytes: 1_000_000 } });
    expect(bucketFiles(dir).filter((f) => f.startsWith('uploads'))).toEqual([]);
    expect(stagedFiles(dir)).toEqual([]);
    expect((await (await fetch(`${server.url}/api/health`)).json()) as unknown).toMatchObject({ ok: true });
  });

  it('empties the staging folder a stopped server left when it starts', () => {
    expect(stagedFiles(dir)).not.toContain('left-by-a-crash.upload');
  });

  it('refuses a request whose files together pass limits.maxUploadBytes, keeping none of them', async () => {
    const part = new Uint8Array(900_000).fill(0x63);
    const res = await upload([
      ['one.md', part],
      ['two.md', part],
      ['three.md', part],
    ]);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /exceeds 2500000 bytes \(limits\.maxUploadBytes\)/,
    );
    expect(bucketFiles(dir).filter((f) => /^uploads\/(one|two|three)\.md$/.test(f))).toEqual([]);
    expect(stagedFiles(dir)).toEqual([]);
  });

  it('answers 413 while an oversized file is still arriving, not after reading it all', async () => {
    const total = 64 * 1024 * 1024;
    const { body, sent } = streamedUpload('streamcut', 'endless.md', total);
    const res = await fetch(`${server.url}/api/documents/upload`, {
      method: 'POST',
      headers: { ...CLIENT, 'content-type': 'multipart/form-data; boundary=streamcut' },
      body,
      duplex: 'half',
    } as RequestInit).catch((error: Error) => error);
    // The server may close the connection before the client reads the answer: either way it stopped early.
    if (!(res instanceof Error)) expect(res.status).toBe(413);
    expect(sent.bytes).toBeLessThan(total / 4);
    expect(bucketFiles(dir)).not.toContain('uploads/endless.md');
    expect(stagedFiles(dir)).toEqual([]);
  });

  it('stores an accepted file from its staged copy and keeps no staged copy', async () => {
    const content = new Uint8Array(600_000).map((_, i) => 0x41 + (i % 26));
    const res = await upload([['staged/letters.txt', content]]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { documents: { key: string }[] }).documents[0]?.key).toBe(
      'uploads/staged/letters.txt',
    );
    expect(readFileSync(join(dir, 'bucket', 'uploads', 'staged', 'letters.txt')).equals(content)).toBe(true);
    expect(stagedFiles(dir)).toEqual([]);
  });

  it('stores each file on its own: a long name is shortened, an unusable name is refused alone', async () => {
    const long = `${'长'.repeat(300)}.md`;
    const res = await upload([
      [long, '# Long\n\nA very long name.\n'],
      ['zh\\ bell.md ', '# Bell\n\nA backslash as separator.\n'],
      ['..', '# Dots\n\nNo name at all.\n'],
      ['good.md', '# Good\n\nThe valid file sent with them.\n'],
    ]);
    expect(res.status).toBe(200);
    const { documents } = (await res.json()) as {
      documents: { key?: string; filename: string; status: string; error?: { message: string } }[];
    };
    expect(documents).toHaveLength(4);
    expect(documents[0]?.status).toBe('queued');
    expect(Buffer.byteLength(documents[0]?.filename ?? '')).toBeLessThanOrEqual(200);
    expect(documents[0]?.filename).toMatch(/^长+\.md$/);
    expect(documents[1]).toMatchObject({ key: 'uploads/zh/bell.md', status: 'queued' });
    expect(documents[2]).toMatchObject({
      status: 'rejected',
      error: { message: expect.stringMatching(/Unusable file name/) },
    });
    expect(documents[3]).toMatchObject({ key: 'uploads/good.md', status: 'queued' });
  });

  it('refuses a file whose key the bucket cannot hold on its own, storing the others', async () => {
    expect((await upload([['clash.md', '# Clash\n\nA file where a folder is wanted.\n']])).status).toBe(200);
    const res = await upload([
      ['clash.md/inner.md', '# Inner\n\nCannot live under a file.\n'],
      ['beside-clash.md', '# Beside\n\nSent with it.\n'],
    ]);
    expect(res.status).toBe(200);
    const { documents } = (await res.json()) as {
      documents: { key?: string; status: string; error?: { message: string } }[];
    };
    expect(documents[0]).toMatchObject({
      key: 'uploads/clash.md/inner.md',
      status: 'rejected',
      error: { message: expect.stringMatching(/conflicts with an existing prefix or object/) },
    });
    expect(documents[1]).toMatchObject({ key: 'uploads/beside-clash.md', status: 'queued' });
    const stored = bucketFiles(dir);
    expect(stored).toContain('uploads/beside-clash.md');
    expect(stored.filter((f) => f.startsWith('uploads/.') || f.includes('dropqa-tmp'))).toEqual([]);
    expect(stagedFiles(dir)).toEqual([]);
    const listed = (await (await fetch(`${server.url}/api/documents?limit=100`)).json()) as {
      items: { key: string }[];
    };
    expect(listed.items.map((d) => d.key)).not.toContain('uploads/clash.md/inner.md');
  });

  it('judges a file with a NUL or other control bytes in its part header on its own', async () => {
    const res = await upload([
      ['fine.md', '# Fine\n\nSent with bad ones.\n'],
      ['bad\u0000name.md', '# Nul\n\nA NUL in the name.\n'],
      ['\u0000\u0001\u0002', '# Nothing\n\nOnly control bytes in the name.\n'],
    ]);
    expect(res.status).toBe(200);
    const { documents } = (await res.json()) as {
      documents: { key?: string; status: string; error?: { message: string } }[];
    };
    expect(documents).toHaveLength(3);
    expect(documents[0]).toMatchObject({ key: 'uploads/fine.md', status: 'queued' });
    // The NUL is dropped from the name: the file is stored under the cleaned name.
    expect(documents[1]).toMatchObject({ key: 'uploads/badname.md', status: 'queued' });
    // A name of control bytes only cleans to nothing: that file alone is refused, with the reason.
    expect(documents[2]).toMatchObject({
      status: 'rejected',
      error: { message: expect.stringMatching(/Unusable file name/) },
    });
    const stored = bucketFiles(dir);
    expect(stored).toContain('uploads/fine.md');
    expect(stored).toContain('uploads/badname.md');
    expect(stagedFiles(dir)).toEqual([]);
  });

  it('keeps part bodies byte for byte while cleaning part headers, across chunk boundaries', async () => {
    // A body with NUL and control bytes, and delimiter-like text, sent in tiny chunks.
    const content = Buffer.from('# Bytes\n\n\u0000\u0001 keep these \r\n--not-the-boundary\r\n\r\nend\n');
    const boundary = 'b0undary';
    const raw = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="ra\u0000w.md"\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < raw.length; i += 3) controller.enqueue(raw.subarray(i, i + 3));
        controller.close();
      },
    });
    const res = await fetch(`${server.url}/api/documents/upload`, {
      method: 'POST',
      headers: { ...CLIENT, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    const { documents } = (await res.json()) as { documents: { key: string }[] };
    expect(documents[0]?.key).toBe('uploads/raw.md');
    expect(readFileSync(join(dir, 'bucket', 'uploads', 'raw.md')).equals(content)).toBe(true);
  });

  it('answers a malformed multipart body with a 400', async () => {
    const res = await fetch(`${server.url}/api/documents/upload`, {
      method: 'POST',
      headers: { ...CLIENT, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.md"\r\n\r\nunterminated',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    const noBoundary = await fetch(`${server.url}/api/documents/upload`, {
      method: 'POST',
      headers: { ...CLIENT, 'content-type': 'multipart/form-data' },
      body: 'nothing',
    });
    expect(noBoundary.status).toBe(400);
    expect(stagedFiles(dir)).toEqual([]);
  });
});

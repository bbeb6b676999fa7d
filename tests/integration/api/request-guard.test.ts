import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '#shared/api/serve.ts';
import { HttpBackend } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

/** A raw HTTP request, so that the Host header can be anything (fetch always sends the URL's). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends `request` as is over a new connection and reads until the server closes it. */
function rawExchange(url: string, request: string): Promise<{ answer: string; error?: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    let answer = '';
    let error: string | undefined;
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ answer, ...(error ? { error } : {}) }));
    socket.write(request);
  });
}

/** What a page on another origin can send with fetch(url, { method: 'POST', mode: 'no-cors', body: formData }). */
function noCorsUpload(origin: string): { headers: Record<string, string>; body: string } {
  const boundary = '----WebKitFormBoundaryplanted';
  return {
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      origin,
      'sec-fetch-mode': 'no-cors',
      'sec-fetch-site': 'same-site',
    },
    body: `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="planted.md"\r\nContent-Type: text/markdown\r\n\r\n# Planted\r\n\r\nA document nobody uploaded.\r\n--${boundary}--\r\n`,
  };
}

describe('request checks of the local server', () => {
  let dir: string;
  let server: Server;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-guard-'));
    server = await startServer(loadConfig({ env: { DROPQA_DATA_DIR: dir, PORT: '0' } }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const documentCount = async () =>
    ((await (await fetch(`${server.url}/api/documents`)).json()) as { total: number }).total;

  it('refuses a cross-origin no-cors multipart upload and stores nothing', async () => {
    const upload = noCorsUpload('http://localhost:9999');
    const res = await raw(`${server.url}/api/documents/upload`, { method: 'POST', ...upload });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.code).toBe('cross_origin');
    expect(await documentCount()).toBe(0);
  });

  it('refuses a state-changing request without the client header or a JSON body', async () => {
    const { headers, body } = noCorsUpload('');
    const { origin: _origin, ...noOrigin } = headers;
    const upload = await raw(`${server.url}/api/documents/upload`, {
      method: 'POST',
      headers: noOrigin,
      body,
    });
    expect(upload.status).toBe(403);
    expect(JSON.parse(upload.body).error).toMatchObject({
      code: 'client_header_required',
      message: expect.stringContaining('X-DropQA-Client'),
    });
    const ask = await raw(`${server.url}/api/qa/ask`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ question: 'anything?' }),
    });
    expect(ask.status).toBe(403);
    expect(await documentCount()).toBe(0);
  });

  it('answers no request whose Host is not its own (DNS rebinding)', async () => {
    for (const host of ['evil.example', 'evil.example:8787', 'localhost.evil.example', '127.0.0.1.nip.io']) {
      const res = await raw(`${server.url}/api/documents`, { headers: { host } });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('host_not_allowed');
    }
    const port = new URL(server.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `LOCALHOST:${port}`]) {
      expect((await raw(`${server.url}/api/documents`, { headers: { host } })).status, host).toBe(200);
    }
  });

  it("accepts the page's and the CLI's requests", async () => {
    const port = new URL(server.url).port;
    const { body, headers } = noCorsUpload(`http://localhost:${port}`);
    const page = await raw(`${server.url}/api/documents/upload`, {
      method: 'POST',
      headers: { ...headers, 'x-dropqa-client': 'web' },
      body,
    });
    expect(page.status).toBe(200);
    const cli = new HttpBackend(server.url);
    const path = join(dir, 'cli.md');
    writeFileSync(path, '# CLI\n\nSent by the CLI.\n');
    const [outcome] = await cli.ingest([{ key: 'uploads/cli.md', path, filename: 'cli.md' }], [], () => {});
    expect(outcome?.status).toBe('ready');
    const removed = await cli.remove('cli.md');
    expect(removed.key).toBe('uploads/cli.md');
  });

  it('serves the page with a Content-Security-Policy and never in a frame', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src '(self|sha256-[^']+)'/);
    expect(csp).not.toContain("script-src 'unsafe-inline'");
    const api = await fetch(`${server.url}/api/health`);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('a server bound to every interface', () => {
  let dir: string;
  let server: Server;
  const warnings: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-guard-exposed-'));
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => {
      warnings.push(args.join(' '));
    });
    try {
      server = await startServer(loadConfig({ env: { DROPQA_DATA_DIR: dir, PORT: '0', HOST: '0.0.0.0' } }));
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates an access token, warns with the URLs to open, and answers nothing without it', async () => {
    const token = server.token ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(warnings.join('\n')).toMatch(/WARNING: listening on 0\.0\.0\.0, reachable from other machines/);
    expect(warnings.join('\n')).toContain(`/?token=${token}`);
    const anonymous = await fetch(`${server.url}/api/documents`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect(
      (await fetch(`${server.url}/api/documents`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    const bearer = await fetch(`${server.url}/api/documents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.status).toBe(200);
  });

  it('turns the printed link into a cookie the page then sends', async () => {
    const link = await fetch(`${server.url}/?token=${server.token}`, { redirect: 'manual' });
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/');
    const cookie = link.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/dropqa_access=.+; .*HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const withCookie = await fetch(`${server.url}/api/documents`, {
      headers: { cookie: cookie.split(';')[0] ?? '' },
    });
    expect(withCookie.status).toBe(200);
  });

  it('lets the CLI in with the token from the lock file', async () => {
    const cli = new HttpBackend(server.url, server.token);
    expect((await cli.documents({ limit: 5, offset: 0 })).total).toBe(0);
  });

  it('answers a JSON 431 to a query string of 100 KB or more, without resetting the connection', async () => {
    for (const size of [100_000, 1_000_000]) {
      const { answer, error } = await rawExchange(
        server.url,
        `GET /api/search?q=${'a'.repeat(size)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      );
      expect(error).toBeUndefined();
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body).error).toMatchObject({
        code: 'request_header_too_large',
        message: expect.stringContaining('16 KB'),
      });
    }
    // The server goes on answering.
    const health = await fetch(`${server.url}/api/health`, {
      headers: server.token ? { authorization: `Bearer ${server.token}` } : {},
    });
    expect(health.status).toBe(200);
  });
});

import type { IncomingMessage, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';

/** A whole answer of the server: its status and body. */
export interface HttpAnswer {
  status: number;
  statusText: string;
  body: string;
}

/**
 * One request over `node:http` with the answer read whole. The CLI's JSON calls use it rather than
 * `fetch`, whose first call loads Node's undici: ~0.4 s of CPU, more than the rest of a `dropqa
 * status` with a server running. Unlike `fetch` it follows no redirect (the API sends none); it
 * rejects when the connection fails or `signal` aborts.
 *
 * @example await httpCall('http://localhost:8787/api/watch', { headers: {} }) // { status: 200, ... }
 */
export async function httpCall(
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<HttpAnswer> {
  const target = new URL(url);
  // TLS is loaded only for an https server (the local server speaks http).
  const send = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const headers = { ...init.headers };
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  const options: RequestOptions = { method: init.method ?? 'GET', headers, signal: init.signal };
  return new Promise((resolve, reject) => {
    const req = send(target, options, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

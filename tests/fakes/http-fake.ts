import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createServer as createH2cServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import { type FakeOperation, type FakeReply, type RecordedRequest, ReplyScript } from './script.ts';

/** What the fakes use of an HTTP/1.1 or HTTP/2 (compatibility API) response. */
export interface FakeResponse {
  readonly headersSent: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** What a protocol (Bedrock, OpenAI) does with one request. */
export type FakeHandler = (
  request: RecordedRequest,
  res: FakeResponse,
  fake: FakeServer,
) => Promise<void> | void;

/** Routes a method and path to the operation name and model id it names, or undefined (404). */
export type FakeRouter = (
  method: string,
  path: string,
  body: RecordedRequest['body'],
) => { operation: string; model: string } | undefined;

/**
 * A scriptable model server on a loopback port: it records every request, answers from per-test
 * queues of replies (texts, tool calls, HTTP errors, dropped connections, delays) and counts how
 * many requests were in flight at once. The protocol comes from `route` and `handle`.
 */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  readonly script = new ReplyScript();
  /** The most requests that were being answered at the same moment. */
  maxInFlight = 0;
  private inFlight = 0;
  private server?: Server | ReturnType<typeof createH2cServer>;
  private readonly sessions = new Set<Http2Session>();

  /** `http2`: speak cleartext HTTP/2 (the AWS SDK's Bedrock Runtime client uses HTTP/2). */
  constructor(
    private readonly route: FakeRouter,
    private readonly handle: FakeHandler,
    private readonly options: { http2?: boolean } = {},
  ) {}

  /** Starts listening on 127.0.0.1 on a free port; returns the base URL. */
  async start(): Promise<string> {
    const serve = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) =>
      void this.serve(req, res);
    const server = this.options.http2 ? createH2cServer(serve) : createServer(serve);
    if (this.options.http2) {
      server.on('session', (session: Http2Session) => {
        this.sessions.add(session);
        session.on('close', () => this.sessions.delete(session));
      });
    }
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('fake server is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    if ('closeAllConnections' in server) server.closeAllConnections();
    for (const session of this.sessions) session.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  /** Queues replies for the next requests of an operation (`chat` or `embed`). */
  enqueue(operation: FakeOperation, ...replies: FakeReply[]): this {
    this.script.push(operation, replies);
    return this;
  }

  /** Forgets recorded requests, queued replies and the in-flight peak. */
  reset(): void {
    this.requests.length = 0;
    this.script.clear();
    this.maxInFlight = 0;
  }

  /** Recorded requests of one operation. */
  recorded(operation: string): RecordedRequest[] {
    return this.requests.filter((r) => r.operation === operation);
  }

  private async serve(req: IncomingMessage | Http2ServerRequest, res: FakeResponse): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let counted = true;
    const settle = () => {
      if (counted) this.inFlight--;
      counted = false;
    };
    // A client that gave up (timeout, reset) closes early; an answer counts down once written.
    res.on('close', settle);
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? JSON.parse(raw) : undefined;
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://fake').pathname);
      const route = this.route(req.method ?? 'GET', path, body);
      if (!route) {
        sendJson(res, 404, { message: `no route ${path}` });
        return;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        ...route,
        headers: req.headers,
        body,
        receivedAt: Date.now(),
      };
      this.requests.push(recorded);
      await this.handle(recorded, res, this);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `fake server error: ${(error as Error).message}` }));
    } finally {
      settle();
    }
  }
}

/** Waits, then reports whether the reply is a dropped connection (handled: the socket is destroyed). */
export async function prelude(reply: FakeReply | undefined, res: FakeResponse): Promise<boolean> {
  if (reply?.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (reply && 'reset' in reply) {
    const raw = res as ServerResponse | Http2ServerResponse;
    if ('stream' in raw) raw.stream.session?.destroy();
    else raw.socket?.destroy();
    return true;
  }
  return false;
}

/** Answers with a JSON body. */
export function sendJson(
  res: FakeResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

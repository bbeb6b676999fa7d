import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One signed request as it reached an AWS endpoint: who signed it, for which service, and what it asked. */
export interface WireRequest {
  /** The access key id it was signed with (SigV4 `Authorization` header or presigned `X-Amz-Credential`). */
  caller: string;
  /** The signing name of its credential scope (`s3`, `rds-data`, `states`, `bedrock`, ...). */
  service: string;
  region: string;
  method: string;
  /** The decoded path. */
  path: string;
  query: Record<string, string>;
  /** The headers, names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** A service answered in-process: status, content type and body of the reply to `request`. */
export type LocalService = (
  request: WireRequest,
) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown };

/** Where the front sends a service's requests: another server (its base URL) or an in-process answer. */
export type ServiceBackend = string | LocalService;

/** The caller, signing service and region of a SigV4-signed request, or undefined when it is unsigned. */
export function credentialScope(
  headers: Record<string, string | string[] | undefined>,
  query: Record<string, string>,
): { caller: string; region: string; service: string } | undefined {
  const authorization = String(headers.authorization ?? '');
  const credential = /Credential=([^,\s]+)/.exec(authorization)?.[1] ?? query['X-Amz-Credential'];
  const [caller, , region, service] = credential?.split('/') ?? [];
  return caller && region && service ? { caller, region, service } : undefined;
}

/**
 * A local AWS endpoint in front of the wire fakes: every request is recorded as a `WireRequest`
 * (the caller is the access key id it was signed with, so each function signs with its own) and then
 * sent on to the backend of its signing service unchanged, or answered in-process. A service without
 * a backend is still recorded and answered `UnknownServiceException`: a call nobody expected is seen,
 * not lost. Point SDK clients at `url` (`AWS_ENDPOINT_URL`, or a client's `endpoint`).
 *
 * @example
 * const front = await startAwsFront({ s3: s3rver.endpoint, 'rds-data': dataApi.url });
 * front.requests.filter((r) => r.caller === 'Register');
 */
export async function startAwsFront(backends: Record<string, ServiceBackend>) {
  const requests: WireRequest[] = [];
  const server = createServer((req, res) => void serve(req, res));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://front');
    const query = Object.fromEntries(url.searchParams);
    const scope = credentialScope(req.headers, query);
    const recorded: WireRequest = {
      caller: scope?.caller ?? '(unsigned)',
      service: scope?.service ?? '(unsigned)',
      region: scope?.region ?? '',
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query,
      headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
      body: body.toString('utf8'),
    };
    requests.push(recorded);
    const backend = backends[recorded.service];
    if (typeof backend === 'string') {
      forward(backend, req, body, res);
      return;
    }
    const reply = backend
      ? await backend(recorded)
      : {
          status: 400,
          body: { __type: 'UnknownServiceException', message: `no fake for ${recorded.service}` },
        };
    res.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0' });
    res.end(JSON.stringify(reply.body));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every request received, in order. */
    requests,
    /** The requests received since the last drain. */
    drain: (): WireRequest[] => requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type AwsFront = Awaited<ReturnType<typeof startAwsFront>>;

function forward(base: string, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const target = new URL(req.url ?? '/', base);
  const upstream = httpRequest(
    target,
    { method: req.method, headers: { ...req.headers, host: target.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`front: ${error.message}`);
  });
  upstream.end(body);
}

/** One operation of an AWS JSON-protocol service: the parsed request body in, the status (200 by default) and reply out. */
export type JsonOperation = (body: Record<string, unknown>) => { status?: number; body: unknown };

/**
 * An AWS JSON-protocol service (Step Functions, SQS, ...) answered in-process by operation, named as
 * its `x-amz-target` header names it (`AWSStepFunctions.StartExecution`). An operation without an
 * answer is refused with `UnknownOperationException`, so an unexpected call fails the test visibly.
 */
export function jsonService(operations: Record<string, JsonOperation>): LocalService {
  return (request) => {
    const operation = operations[request.headers['x-amz-target'] ?? ''];
    if (!operation) {
      return {
        status: 400,
        body: { __type: 'UnknownOperationException', message: request.headers['x-amz-target'] },
      };
    }
    const reply = operation(request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {});
    return { status: reply.status ?? 200, body: reply.body };
  };
}

/** The target and parsed body of a recorded JSON-protocol request. */
export function jsonCall(request: WireRequest): { target: string; body: Record<string, unknown> } {
  return {
    target: request.headers['x-amz-target'] ?? '',
    body: JSON.parse(request.body) as Record<string, unknown>,
  };
}

/** Options for an AWS SDK client that talks to the front with fake credentials and no retries. */
export function frontClientOptions(front: { url: string }, region = 'eu-west-1') {
  return {
    region,
    endpoint: front.url,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  };
}

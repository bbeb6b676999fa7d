import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { DATA_API_REQUEST_BYTES, DATA_API_RESPONSE_BYTES } from '#shared/db/data-api-limits.ts';
import { toPositional } from './data-api-sql.ts';
import {
  type Bound,
  bindParameter,
  type Field,
  RAW_TEXT_TYPES,
  type SqlParameter,
  toField,
} from './data-api-values.ts';

export interface FakeDataApiOptions {
  /** The database behind the endpoint (one connection: transactions take it in turn). */
  pglite: PGlite;
  /** Answer this many requests with `DatabaseResumingException` first, as a paused Aurora does. */
  resumingResponses?: number;
  /** How long a statement outside a transaction waits for an open one before failing. */
  lockWaitMs?: number;
}

export interface FakeDataApi {
  /** `http://127.0.0.1:<port>`: the `endpoint` of an `RDSDataClient`. */
  url: string;
  /** Operations received, in order (`Execute`, `BeginTransaction`, ...), with their SQL and sizes. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface RecordedRequest {
  operation: string;
  sql?: string;
  transactionId?: string;
  /** The request body's size. */
  bytes: number;
  /** The answer's size, once sent (also for an answer refused as too large). */
  responseBytes?: number;
}

class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

interface ExecuteRequest {
  resourceArn?: string;
  secretArn?: string;
  database?: string;
  sql?: string;
  parameters?: SqlParameter[];
  parameterSets?: SqlParameter[][];
  transactionId?: string;
  includeResultMetadata?: boolean;
}

/**
 * A local endpoint speaking the RDS Data API's REST-JSON protocol (ExecuteStatement,
 * BatchExecuteStatement, BeginTransaction, CommitTransaction, RollbackTransaction) over PGlite, so
 * that the real `@aws-sdk/client-rds-data` client and drizzle's aws-data-api driver run in tests.
 * Like the service it binds named parameters with the service's types, returns typed fields, refuses
 * array parameters, several statements in one call, requests above 4 MiB and results above 1 MiB (the
 * service's documented limits; a result answered as the service does, `BadRequestException`
 * "Database returned more than the allowed response size limit"; the request's message is the
 * fake's own, the service's wording being undocumented), and reports SQL errors as
 * `DatabaseErrorException` with the SQLSTATE only in the message (`ERROR: ...; SQLState: 40P01`).
 * Authentication is not checked.
 *
 * @example
 * const api = await startFakeDataApi({ pglite });
 * const client = new RDSDataClient({ endpoint: api.url, region: 'us-east-1', credentials });
 */
export async function startFakeDataApi(options: FakeDataApiOptions): Promise<FakeDataApi> {
  const { pglite } = options;
  const lockWaitMs = options.lockWaitMs ?? 15_000;
  let resuming = options.resumingResponses ?? 0;
  const requests: FakeDataApi['requests'] = [];
  const typeNames = new Map<number, string>();
  let owner: string | undefined;
  let released: (() => void)[] = [];

  const parsers = Object.fromEntries(RAW_TEXT_TYPES.map((oid) => [oid, (text: string) => text]));

  async function waitForConnection(): Promise<void> {
    const deadline = Date.now() + lockWaitMs;
    while (owner !== undefined) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new ApiError(
          'StatementTimeoutException',
          `fake Data API: waited ${lockWaitMs} ms for transaction ${owner} (PGlite has one connection: is a statement outside the transaction waiting for it?)`,
        );
      }
      await new Promise<void>((resume) => {
        const timer = setTimeout(resume, left);
        released.push(() => {
          clearTimeout(timer);
          resume();
        });
      });
    }
  }

  function release(): void {
    owner = undefined;
    const waiting = released;
    released = [];
    for (const resume of waiting) resume();
  }

  function checkTransaction(id: string | undefined): void {
    if (id !== undefined && id !== owner)
      throw new ApiError('BadRequestException', `Transaction ${id} is not found`);
  }

  async function typeName(oid: number): Promise<string> {
    const known = typeNames.get(oid);
    if (known) return known;
    const result = await pglite.query<{ typname: string }>('select typname from pg_type where oid = $1', [
      oid,
    ]);
    const name = result.rows[0]?.typname ?? 'unknown';
    typeNames.set(oid, name);
    return name;
  }

  async function run(request: ExecuteRequest, parameters: SqlParameter[]) {
    const sql = request.sql ?? '';
    const { text, names } = toPositional(sql);
    const byName = new Map(parameters.map((p) => [p.name ?? '', p]));
    const bound: Bound[] = names.map((name) => {
      const parameter = byName.get(name);
      if (!parameter) throw new ApiError('BadRequestException', `No value specified for parameter: ${name}`);
      try {
        return bindParameter(parameter);
      } catch (error) {
        throw new ApiError('BadRequestException', (error as Error).message);
      }
    });
    try {
      return await pglite.query<unknown[]>(
        text,
        bound.map((b) => b.value),
        {
          rowMode: 'array',
          paramTypes: bound.map((b) => b.type),
          parsers,
          serializers: Object.fromEntries(bound.map((b) => [b.type, (v: unknown) => String(v)])),
        },
      );
    } catch (error) {
      throw databaseError(error);
    }
  }

  async function execute(request: ExecuteRequest) {
    const result = await run(request, request.parameters ?? []);
    const fields = result.fields;
    const response: Record<string, unknown> = {
      numberOfRecordsUpdated: fields.length > 0 ? 0 : (result.affectedRows ?? 0),
      generatedFields: [],
    };
    if (fields.length > 0) {
      response.records = result.rows.map((row) =>
        row.map((value, i): Field => toField(value, fields[i]?.dataTypeID ?? 0)),
      );
      if (request.includeResultMetadata) {
        response.columnMetadata = await Promise.all(
          fields.map(async (f) => ({ name: f.name, label: f.name, typeName: await typeName(f.dataTypeID) })),
        );
      }
    }
    return response;
  }

  async function handle(
    operation: string,
    request: ExecuteRequest,
    entry: RecordedRequest,
  ): Promise<unknown> {
    if (!request.resourceArn || !request.secretArn)
      throw new ApiError('BadRequestException', 'resourceArn and secretArn are required');
    entry.sql = request.sql;
    entry.transactionId = request.transactionId;
    requests.push(entry);
    const { bytes } = entry;
    if (bytes > DATA_API_REQUEST_BYTES)
      throw new ApiError('BadRequestException', `Request size ${bytes} bytes exceeds the 4 MiB limit`);
    if (resuming > 0) {
      resuming--;
      throw new ApiError(
        'DatabaseResumingException',
        'The Aurora DB instance is resuming after being auto-paused.',
      );
    }
    switch (operation) {
      case 'Execute':
        checkTransaction(request.transactionId);
        if (!request.transactionId) await waitForConnection();
        return execute(request);
      case 'BatchExecute': {
        checkTransaction(request.transactionId);
        if (!request.transactionId) await waitForConnection();
        const updateResults = [];
        for (const set of request.parameterSets ?? []) {
          await run(request, set);
          updateResults.push({ generatedFields: [] });
        }
        return { updateResults };
      }
      case 'BeginTransaction': {
        // Every waiter resumes when the connection is released: the first to look again takes it.
        do await waitForConnection();
        while (owner !== undefined);
        const id = randomUUID();
        owner = id;
        try {
          await pglite.query('BEGIN');
        } catch (error) {
          release();
          throw databaseError(error);
        }
        return { transactionId: id };
      }
      case 'CommitTransaction':
      case 'RollbackTransaction': {
        if (!request.transactionId || request.transactionId !== owner)
          throw new ApiError('NotFoundException', `Transaction ${request.transactionId} is not found`, 404);
        try {
          await pglite.query(operation === 'CommitTransaction' ? 'COMMIT' : 'ROLLBACK');
        } finally {
          release();
        }
        return {
          transactionStatus:
            operation === 'CommitTransaction' ? 'Transaction Committed' : 'Rollback Complete',
        };
      }
      default:
        throw new ApiError('UnknownOperationException', `Unknown operation ${operation}`, 404);
    }
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const operation = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
      void (async () => {
        let status = 200;
        let body: unknown;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        try {
          if (req.method !== 'POST') throw new ApiError('BadRequestException', 'POST only');
          const raw = Buffer.concat(chunks);
          const request = JSON.parse(raw.toString('utf8') || '{}') as ExecuteRequest;
          const entry: RecordedRequest = { operation, bytes: raw.length };
          body = await handle(operation, request, entry);
          entry.responseBytes = Buffer.byteLength(JSON.stringify(body));
          if (entry.responseBytes > DATA_API_RESPONSE_BYTES) {
            throw new ApiError(
              'BadRequestException',
              'Database returned more than the allowed response size limit',
            );
          }
        } catch (error) {
          const apiError =
            error instanceof ApiError
              ? error
              : new ApiError('InternalServerErrorException', String(error), 500);
          status = apiError.status;
          headers['x-amzn-errortype'] = apiError.type;
          body = { message: apiError.message };
        }
        res.writeHead(status, headers);
        res.end(JSON.stringify(body));
      })();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** A Postgres error as the Data API words it: `ERROR: <message>; SQLState: <code>`. */
function databaseError(error: unknown): ApiError {
  const e = error as { message?: string; code?: string; position?: string };
  const position = e.position ? `\n  Position: ${e.position}` : '';
  return new ApiError(
    'DatabaseErrorException',
    `ERROR: ${e.message ?? String(error)}${position}; SQLState: ${e.code ?? 'XX000'}`,
  );
}

/**
 * The messages between the embedded database's worker thread (`host.ts`) and its client on the main
 * thread (`client.ts`). Only data crosses: drizzle's result parsers are installed inside the worker.
 */

/** What the worker is opened with (`workerData`). */
export interface HostOptions {
  /** The data folder; undefined means in memory. */
  dir: string | undefined;
  /** The session's statement timeout until a `SET statement_timeout` changes it; 0 means none. */
  statementTimeoutMs: number;
}

export type HostRequest =
  | {
      op: 'query';
      id: number;
      text: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** The transaction it belongs to; none means it waits until no transaction is open. */
      tx?: number;
    }
  | { op: 'begin'; id: number; tx: number }
  | { op: 'commit' | 'rollback'; id: number; tx: number }
  /** Installs the serializers of the extensions' types (`installVectorSerializer`), once they exist. */
  | { op: 'serializers'; id: number }
  | { op: 'close'; id: number };

/** A query's result as PGlite gives it. */
export interface HostResult {
  rows: unknown[];
  affectedRows?: number;
  fields: { name: string; dataTypeID: number }[];
}

/** A database error with its Postgres fields (`code` is the SQLSTATE). */
export interface HostError {
  name: string;
  message: string;
  fields: Record<string, string | number | undefined>;
}

export type HostReply =
  | { kind: 'ready' }
  | { kind: 'open-failed'; error: HostError }
  /** The request is now running in PGlite, with this statement timeout (0: none). */
  | { kind: 'started'; id: number; timeoutMs: number }
  | { kind: 'result'; id: number; result: HostResult }
  | { kind: 'error'; id: number; error: HostError };

/** The Postgres error fields (pg-protocol's `DatabaseError`) carried across the thread boundary. */
export const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

/** Any thrown value as a `HostError`, keeping the Postgres fields it has. */
export function toHostError(error: unknown): HostError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: HostError['fields'] = {};
  for (const field of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') fields[field] = value;
  }
  return { name: error.name, message: error.message, fields };
}

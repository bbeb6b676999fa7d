import { ERROR_FIELDS, type HostError } from './protocol.ts';

/**
 * An error of the embedded database as its worker thread reports it: the Postgres fields PGlite
 * gave (`code` = SQLSTATE, `detail`, `constraint`, ...) on an `Error`, so code that reads them
 * (`sqlState`, the unique-violation checks, `toStepError`) works as with PGlite in-process.
 */
export class EmbeddedDatabaseError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
  constraint?: string;
  constructor(error: HostError) {
    super(error.message);
    this.name = error.name;
    for (const field of ERROR_FIELDS) {
      const value = error.fields[field];
      if (value !== undefined) Object.assign(this, { [field]: value });
    }
  }
}

const fail = (code: string, message: string) =>
  new EmbeddedDatabaseError({ name: 'EmbeddedDatabaseError', message, fields: { code } });

/** SQLSTATE 57014 (query_canceled), as a Postgres server answers a statement past its timeout. */
export function statementTimeoutError(timeoutMs: number, restarted: boolean): EmbeddedDatabaseError {
  const what = restarted
    ? 'the embedded database was stopped and reopened from its folder'
    : 'the in-memory database cannot be reopened, so the statement runs on and later statements wait for it';
  return fail(
    '57014',
    `canceling statement due to statement timeout: it ran longer than ${timeoutMs} ms (database.statementTimeoutMs); ${what}`,
  );
}

/** SQLSTATE 57P01 (admin_shutdown): a transaction lost when the worker was stopped for another statement. */
export function restartedError(timeoutMs: number): EmbeddedDatabaseError {
  return fail(
    '57P01',
    `the embedded database was reopened because another statement ran longer than ${timeoutMs} ms (database.statementTimeoutMs); this transaction was rolled back, try again`,
  );
}

/** SQLSTATE 08006 (connection_failure): the worker thread stopped on its own. */
export function workerStoppedError(reason: string): EmbeddedDatabaseError {
  return fail(
    '08006',
    `the embedded database's worker thread stopped (${reason}); the statement may not have run`,
  );
}

/** SQLSTATE 08003 (connection_does_not_exist): the database was closed. */
export function closedError(): EmbeddedDatabaseError {
  return fail('08003', 'the embedded database is closed');
}

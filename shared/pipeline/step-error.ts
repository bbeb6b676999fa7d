import { databaseMessage, sqlState } from '../db/sql-state.ts';
import { reasonOf } from '../errors.ts';

/** Postgres SQLSTATEs worth retrying: serialization failure, deadlock, too many connections, shutdown. */
const TRANSIENT_SQLSTATE = /^(40001|40P01|53300|57P01|57P02|57P03|08\w{3})$/;
const TRANSIENT_MESSAGE = /Connection terminated|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|socket hang up/i;

/**
 * The error a step reports to the state machine: the state machine matches Retry and Catch on its
 * `name` and records its `message`. A failed query (drizzle wraps the driver error in "Failed query:
 * <SQL> params: ...") becomes a `DatabaseError` with the driver's message, never the SQL, and a
 * dropped connection, a deadlock or a serialization failure becomes a `TransientError`, which the
 * definition retries. The SQLSTATE is read whatever the driver (`sqlState`: over the Data API it is
 * only in the message).
 *
 * @example throw toStepError(error) // inside a Task handler
 */
export function toStepError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(reasonOf(error));
  const cause = error.cause;
  const isQueryError = error.name === 'DrizzleQueryError' || error.message.startsWith('Failed query:');
  if (!isQueryError) return error;
  const code = sqlState(cause);
  const message = cause instanceof Error ? databaseMessage(cause) : 'the query failed';
  const transient = (code !== undefined && TRANSIENT_SQLSTATE.test(code)) || TRANSIENT_MESSAGE.test(message);
  const converted = new Error(`database error: ${message}`, { cause: error });
  converted.name = transient ? 'TransientError' : 'DatabaseError';
  return converted;
}

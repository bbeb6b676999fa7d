/**
 * The embedded database's worker thread: one PGlite (file-backed or in memory) serving the requests
 * of `client.ts` one at a time, in arrival order, except that while a transaction is open only its
 * own requests run (as PGlite itself does); a transaction still open when `close` comes, with
 * nothing of it left queued, is rolled back. Before each request starts it tells the client which
 * statement timeout applies, so the client can stop the thread if the statement outlives it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite, installDrizzleParsers } from '../pglite-parsers.ts';
import { installVectorSerializer } from '../vector-binary.ts';
import { PreparedStatements } from './prepared-statements.ts';
import { type HostOptions, type HostReply, type HostRequest, toHostError } from './protocol.ts';
import { parseTimeoutSetting } from './statement-timeout.ts';

if (!parentPort) throw new Error('shared/db/pglite-worker/host.ts runs inside a worker thread');
const port = parentPort;
const options = workerData as HostOptions;
const reply = (message: HostReply) => port.postMessage(message);

/** Statements worth preparing even without parameters: queries and row changes, not SET or DDL. */
const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;

/** Requests outside any transaction, `begin` and `close` among them. */
const waiting: HostRequest[] = [];
/** The open transaction and its requests. */
let open: { tx: number; queue: HostRequest[] } | undefined;
let busy = false;
let sessionTimeoutMs = options.statementTimeoutMs;
let localTimeoutMs: number | undefined;
let pglite: PGlite | undefined;
let prepared: PreparedStatements | undefined;

port.on('message', (request: HostRequest) => {
  if ('tx' in request && request.tx !== undefined && request.op !== 'begin') {
    if (open?.tx !== request.tx) {
      reply({
        kind: 'error',
        id: request.id,
        error: { name: 'Error', message: `transaction ${request.tx} is not open`, fields: { code: '25P01' } },
      });
      return;
    }
    open.queue.push(request);
  } else {
    waiting.push(request);
  }
  void pump();
});

async function pump(): Promise<void> {
  if (busy || !pglite) return;
  const db = pglite;
  const request = open ? open.queue.shift() : waiting.shift();
  if (!request && !closingWhileOpen()) return;
  busy = true;
  try {
    if (request) await run(db, request);
    else await abandonTransaction(db);
  } finally {
    busy = false;
  }
  void pump();
}

/**
 * Whether the client closes while a transaction has nothing more queued: the client refuses every
 * statement after `close`, so whatever the transaction's owner still does (an aborted request's
 * search resuming later, say) can never reach it, and `close` would wait for it forever.
 */
function closingWhileOpen(): boolean {
  return open !== undefined && open.queue.length === 0 && waiting.some((r) => r.op === 'close');
}

/** Rolls back the open transaction that `close` found (`closingWhileOpen`), so the close can run. */
async function abandonTransaction(db: PGlite): Promise<void> {
  open = undefined;
  localTimeoutMs = undefined;
  await db.exec('ROLLBACK').catch(() => undefined);
}

async function run(db: PGlite, request: HostRequest): Promise<void> {
  if (request.op === 'close') {
    await db.close();
    reply({ kind: 'result', id: request.id, result: { rows: [], fields: [] } });
    port.close();
    return;
  }
  reply({ kind: 'started', id: request.id, timeoutMs: localTimeoutMs ?? sessionTimeoutMs });
  let answer: HostReply;
  try {
    answer = { kind: 'result', id: request.id, result: await execute(db, request) };
  } catch (error) {
    answer = { kind: 'error', id: request.id, error: toHostError(error) };
  }
  try {
    reply(answer);
  } catch (error) {
    // A value that cannot be cloned to the main thread fails its own query, not the thread.
    reply({ kind: 'error', id: request.id, error: toHostError(error) });
  }
}

async function execute(db: PGlite, request: Exclude<HostRequest, { op: 'close' }>) {
  if (request.op === 'begin') {
    await db.exec('BEGIN');
    open = { tx: request.tx, queue: [] };
    return { rows: [], fields: [] };
  }
  if (request.op === 'serializers') {
    await installVectorSerializer(db);
    return { rows: [], fields: [] };
  }
  if (request.op !== 'query') {
    // The transaction ends whether COMMIT succeeds or not (a failed COMMIT rolls back).
    open = undefined;
    localTimeoutMs = undefined;
    await db.exec(request.op === 'commit' ? 'COMMIT' : 'ROLLBACK');
    return { rows: [], fields: [] };
  }
  installDrizzleParsers(db);
  // Queries and row changes are the application's, run again and again: prepared once. The others
  // (SET, DDL, migrations) go through PGlite as they are.
  const result =
    prepared && (request.params.length > 0 || PREPARABLE.test(request.text))
      ? await prepared.query(request.text, request.params, request.rowMode, open !== undefined)
      : await db.query(request.text, request.params, { rowMode: request.rowMode });
  const setting = parseTimeoutSetting(request.text);
  if (setting?.scope === 'local' && open) localTimeoutMs = setting.ms ?? sessionTimeoutMs;
  if (setting?.scope === 'session') {
    sessionTimeoutMs = setting.ms ?? options.statementTimeoutMs;
    localTimeoutMs = undefined;
  }
  return { rows: result.rows, affectedRows: result.affectedRows, fields: result.fields };
}

try {
  pglite = await createPglite(options.dir);
  prepared = new PreparedStatements(pglite);
  // A folder opened again (after a statement timeout too) has its types already.
  await installVectorSerializer(pglite);
  // PGlite never enforces it (the client does), but SHOW statement_timeout then tells the truth.
  await pglite.query(`SET statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`);
  reply({ kind: 'ready' });
  void pump();
} catch (error) {
  reply({ kind: 'open-failed', error: toHostError(error) });
  port.close();
}

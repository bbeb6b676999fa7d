import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';
import { hasDrizzleParsers } from '../pglite-parsers.ts';
import {
  closedError,
  EmbeddedDatabaseError,
  restartedError,
  statementTimeoutError,
  workerStoppedError,
} from './errors.ts';
import type { HostOptions, HostReply, HostRequest, HostResult } from './protocol.ts';

/**
 * The worker's young generation, twice V8's default: every statement's parameters and results are
 * copied through it (a document's ~300 KB of values, its vectors decoded from text), and with the
 * default it was collected every few statements. 150 generated documents (bench/ingest-cpu.ts,
 * load ~3, all threads): 145 / 140 / 139 / 133 ms of CPU a document with the default, 125 / 122
 * with 96 MB and 128 / 126 with 192 (the main thread and V8's helper threads did less too); 384 MB
 * gained nothing.
 */
const YOUNG_GENERATION_MB = 96;

/**
 * The worker's entry: the CLI bundle's build of host.ts when this code runs from the bundle
 * (`bin/cli-bundle.js` replaces `process.env.DROPQA_CLI_BUNDLE` with its folder when it builds), else
 * boot.js, which runs host.ts through tsx (tests, tools). The bundled host starts without tsx's
 * loader and transpiling (~0.5-0.9 s of a server's start).
 */
function workerEntry(): URL {
  const bundle = process.env.DROPQA_CLI_BUNDLE;
  return bundle ? pathToFileURL(join(bundle, 'pglite-host.mjs')) : new URL('./boot.js', import.meta.url);
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<HostRequest>;

interface Pending {
  request: HostRequest;
  resolve(result: HostResult): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
  /** Answered already (timed out in memory): its late result is dropped. */
  abandoned?: boolean;
}

/** The part of PGlite drizzle's PGlite driver calls (`query`, `transaction` and the transaction's `query`). */
export type DrizzlePgliteClient = Pick<PGlite, 'query' | 'transaction'>;

/**
 * PGlite in a worker thread, so that its statements no longer hold the main thread's event loop
 * (HTTP requests, parsing), and a statement past its timeout can be stopped: PGlite accepts
 * `statement_timeout` but cannot interrupt a running statement, so the client times each statement
 * from the moment the worker starts it. When one outlives its timeout its caller gets SQLSTATE 57014;
 * a file-backed database's worker is then terminated and reopened from its folder (Postgres recovers
 * it like after a crash), requests that had not started are sent again, and the statements of a
 * transaction open at that moment fail with 57P01 (rolled back). An in-memory database cannot be
 * reopened: its caller gets 57014 and the statement runs on.
 *
 * `SET [LOCAL] statement_timeout` statements change the timeout as on Postgres (index builds use it).
 *
 * @example const client = await PgliteWorkerClient.open({ dir: 'data/db', statementTimeoutMs: 60_000 });
 */
export class PgliteWorkerClient {
  readonly #options: HostOptions;
  #worker!: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #nextTx = 1;
  readonly #openTx = new Set<number>();
  readonly #lostTx = new Map<number, Error>();
  #closing = false;
  /** Set when the worker cannot be used any more (it stopped in memory, or failed to reopen). */
  #broken: Error | undefined;

  private constructor(options: HostOptions) {
    this.#options = options;
  }

  /** Starts the worker and waits until its PGlite is open. */
  static async open(options: HostOptions): Promise<PgliteWorkerClient> {
    const client = new PgliteWorkerClient(options);
    await client.#spawn();
    return client;
  }

  /** What drizzle's PGlite driver is given as its client. */
  get drizzleClient(): DrizzlePgliteClient {
    return {
      query: (text, params, options) => this.query(text, params, options, undefined),
      transaction: (run) => this.transaction(run),
    } as DrizzlePgliteClient;
  }

  async query<T>(
    text: string,
    params: unknown[] | undefined,
    options: { rowMode?: 'array' | 'object'; parsers?: Record<number, unknown> } | undefined,
    tx: number | undefined,
  ): Promise<Results<T>> {
    if (options?.parsers && !hasDrizzleParsers(options.parsers)) {
      // Functions cannot cross to the worker thread, which installs drizzle's parsers only.
      throw new Error('the embedded database worker reads results with drizzle parsers only');
    }
    const lost = tx === undefined ? undefined : this.#lostTx.get(tx);
    if (lost) throw lost;
    const result = await this.#send({
      op: 'query',
      text,
      params: params ?? [],
      rowMode: options?.rowMode ?? 'object',
      tx,
    });
    return result as Results<T>;
  }

  /**
   * Runs `run` in one transaction: the worker runs no other caller's statement until it ends.
   * Commits when `run` resolves, rolls back when it throws.
   */
  async transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = this.#nextTx++;
    await this.#send({ op: 'begin', tx });
    this.#openTx.add(tx);
    const handle = {
      query: (text: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }) =>
        this.query(text, params, options, tx),
    } as unknown as Transaction;
    try {
      let result: T;
      try {
        result = await run(handle);
      } catch (error) {
        await this.#end(tx, 'rollback').catch(() => undefined);
        throw error;
      }
      await this.#end(tx, 'commit');
      return result;
    } finally {
      this.#openTx.delete(tx);
      this.#lostTx.delete(tx);
    }
  }

  /** Has the worker install the serializers of the extensions' types (after the migrations made them). */
  async installSerializers(): Promise<void> {
    await this.#send({ op: 'serializers' });
  }

  /**
   * Closes PGlite after the requests already sent, then stops the worker. Requests sent later fail
   * with 08003; so do a transaction's: one still open is rolled back rather than waited for.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    if (!this.#broken) await this.#post({ op: 'close' }).catch(() => undefined);
    this.#worker.removeAllListeners();
    await this.#worker.terminate();
    this.#failAll(closedError());
  }

  async #end(tx: number, op: 'commit' | 'rollback'): Promise<void> {
    const lost = this.#lostTx.get(tx);
    if (lost) {
      if (op === 'commit') throw lost;
      return;
    }
    await this.#send({ op, tx });
  }

  #send(request: Request): Promise<HostResult> {
    if (this.#closing) return Promise.reject(closedError());
    return this.#post(request);
  }

  #post(request: Request): Promise<HostResult> {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    const full = { ...request, id } as HostRequest;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { request: full, resolve, reject });
      this.#holdProcess();
      this.#worker.postMessage(full);
    });
  }

  #spawn(): Promise<void> {
    const worker = new Worker(workerEntry(), {
      workerData: this.#options,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.#worker = worker;
    let ready = false;
    return new Promise((resolve, reject) => {
      worker.on('message', (reply: HostReply) => {
        if (reply.kind === 'ready') {
          ready = true;
          this.#holdProcess();
          resolve();
        } else if (reply.kind === 'open-failed') reject(new EmbeddedDatabaseError(reply.error));
        else this.#onReply(reply);
      });
      worker.on('error', (error) => {
        if (ready) this.#onStopped(worker, error.message);
        else reject(error);
      });
      worker.on('exit', (code) => {
        if (ready) this.#onStopped(worker, `exit code ${code}`);
        else reject(workerStoppedError(`exit code ${code} while opening`));
      });
    });
  }

  #onReply(reply: Exclude<HostReply, { kind: 'ready' | 'open-failed' }>): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    if (reply.kind === 'started') {
      if (reply.timeoutMs > 0 && !pending.abandoned) {
        pending.timer = setTimeout(() => this.#timedOut(reply.id, reply.timeoutMs), reply.timeoutMs);
      }
      return;
    }
    clearTimeout(pending.timer);
    this.#settle(reply.id);
    if (pending.abandoned) return;
    if (reply.kind === 'result') pending.resolve(reply.result);
    else pending.reject(new EmbeddedDatabaseError(reply.error));
  }

  #timedOut(id: number, timeoutMs: number): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    const restartable = this.#options.dir !== undefined;
    pending.reject(statementTimeoutError(timeoutMs, restartable));
    if (!restartable) {
      pending.abandoned = true;
      return;
    }
    this.#pending.delete(id);
    this.#restart(restartedError(timeoutMs));
  }

  /** Stops the worker mid-statement and reopens the database from its folder. */
  #restart(lost: Error): void {
    const old = this.#worker;
    old.removeAllListeners();
    void old.terminate();
    for (const tx of this.#openTx) this.#lostTx.set(tx, lost);
    const again: HostRequest[] = [];
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      const { request } = pending;
      const inLostTx = request.op !== 'begin' && 'tx' in request && request.tx !== undefined;
      if (!inLostTx) {
        again.push(request);
        continue;
      }
      this.#pending.delete(id);
      if (request.op === 'rollback') pending.resolve({ rows: [], fields: [] });
      else pending.reject(lost);
    }
    this.#spawn().catch((error: Error) => this.#breakWith(error));
    for (const request of again) this.#worker.postMessage(request);
    this.#holdProcess();
  }

  /** The worker stopped by itself (a crash, out of memory): nothing in flight can be trusted to have run. */
  #onStopped(worker: Worker, reason: string): void {
    if (worker !== this.#worker || this.#closing) return;
    worker.removeAllListeners();
    const error = workerStoppedError(reason);
    this.#failAll(error);
    if (this.#options.dir === undefined) {
      this.#breakWith(error);
      return;
    }
    for (const tx of this.#openTx) this.#lostTx.set(tx, error);
    this.#spawn().catch((failure: Error) => this.#breakWith(failure));
  }

  #breakWith(error: Error): void {
    this.#broken = error;
    this.#failAll(error);
    this.#worker.unref();
  }

  #failAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      if (!pending.abandoned) pending.reject(error);
    }
    this.#holdProcess();
  }

  #settle(id: number): void {
    this.#pending.delete(id);
    this.#holdProcess();
  }

  /** The worker keeps the process alive only while a request waits for it, as an in-process PGlite would. */
  #holdProcess(): void {
    if (this.#pending.size > 0) this.#worker.ref();
    else this.#worker.unref();
  }
}

import { CLIENT_HEADER } from '../api/client-header.ts';
import type { DiffRange, DocumentDiff } from '../diff/index.ts';
import type { DocumentSummary, ListOptions, VersionSummary } from '../documents/index.ts';
import { NotFoundError, reasonOf } from '../errors.ts';
import type { IngestOutcome } from '../pipeline/ingest.ts';
import type { QaEvent } from '../qa/events.ts';
import type { AskRequest } from '../qa/request.ts';
import { CONTROL_HEADER } from '../runtime/lock.ts';
import type { SearchHit, SearchRequest } from '../search/index.ts';
import type { WatchFolderStatus, WatchStatus } from '../watch/index.ts';
import type { Backend } from './backend.ts';
import { type InputFile, intoCollection, readInput } from './files.ts';
import { type HttpAnswer, httpCall } from './http-call.ts';

const POLL_MS = 300;

/** The CLI talking to a running DropQA server over its HTTP API (the same SSE stream as the page). */
export class HttpBackend implements Backend {
  readonly description: string;

  /** Keys sent to the server whose outcome has not been seen yet (named if the server goes away). */
  private readonly waiting = new Set<string>();

  /** `token`: the server's access token (its lock file holds it), sent as `Authorization: Bearer`. */
  constructor(
    private readonly url: string,
    private readonly token?: string,
    private readonly controlKey?: string,
  ) {
    this.description = `the server at ${url}`;
  }

  async ingest(
    documents: InputFile[],
    assets: InputFile[],
    onOutcome: (o: IngestOutcome) => void,
    collection?: string,
  ) {
    if (assets.length > 0) {
      process.stderr.write(
        `note: ${assets.length} image file(s) not sent: the server stores uploaded documents only\n`,
      );
    }
    const form = new FormData();
    for (const doc of documents) {
      form.append(
        'files',
        new Blob([readInput(doc) as Uint8Array<ArrayBuffer>]),
        doc.key.replace(/^uploads\//, ''),
      );
    }
    for (const doc of documents) this.waiting.add(intoCollection(doc, collection).key);
    const response = await this.request(`/api/documents/upload${collectionQuery(collection)}`, {
      method: 'POST',
      body: form,
    });
    if (!response.ok) throw new Error(await errorText(response));
    const { documents: submitted } = (await response.json()) as {
      documents: {
        id: string;
        key?: string;
        filename: string;
        status: string;
        version?: number;
        error?: { message: string };
      }[];
    };
    const outcomes: IngestOutcome[] = [];
    await Promise.all(
      submitted.map(async ({ id, filename, key = `uploads/${filename}`, status, version, error }) => {
        // A file the server refused (its name or key) failed on its own, with the reason.
        const outcome: IngestOutcome =
          status === 'rejected'
            ? { key, status: 'failed', error: error?.message ?? 'refused' }
            : status === 'unchanged'
              ? { key, documentId: id, version, status: 'unchanged' }
              : await this.waitForDocument(id, key);
        this.waiting.delete(key);
        outcomes.push(outcome);
        onOutcome(outcome);
      }),
    );
    return outcomes;
  }

  async *ask(request: AskRequest, signal?: AbortSignal, collection?: string): AsyncIterable<QaEvent> {
    const response = await this.request(`/api/qa/ask${collectionQuery(collection)}`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    if (!response.ok || !response.body) throw new Error(await errorText(response));
    yield* parseSse(response.body);
  }

  async search(request: SearchRequest, collection?: string): Promise<SearchHit[]> {
    const params = new URLSearchParams({
      q: request.query,
      kind: request.kind,
      limit: String(request.limit ?? 10),
    });
    if (request.filters?.version) params.set('version', String(request.filters.version));
    if (request.keywordMode) params.set('mode', request.keywordMode);
    if (collection) params.set('collection', collection);
    return (await this.json<{ results: SearchHit[] }>(`/api/search?${params}`)).results;
  }

  async documents(
    options: ListOptions,
    collection?: string,
  ): Promise<{ items: DocumentSummary[]; total: number }> {
    const params = new URLSearchParams({ limit: String(options.limit), offset: String(options.offset) });
    for (const name of ['status', 'name', 'type'] as const) {
      const value = options[name];
      if (value) params.set(name, value);
    }
    if (options.topicId) params.set('topic', options.topicId);
    if (collection) params.set('collection', collection);
    return this.json(`/api/documents?${params}`);
  }

  async versions(keyOrId: string): Promise<{ document: DocumentSummary; versions: VersionSummary[] }> {
    const document = await this.resolve(keyOrId);
    const { versions } = await this.json<{ versions: VersionSummary[] }>(
      `/api/documents/${document.id}/versions`,
    );
    return { document, versions };
  }

  async diff(keyOrId: string, range: DiffRange): Promise<DocumentDiff> {
    const document = await this.resolve(keyOrId);
    const params = new URLSearchParams();
    if (range.from !== undefined) params.set('from', String(range.from));
    if (range.to !== undefined) params.set('to', String(range.to));
    return this.json<DocumentDiff>(`/api/documents/${document.id}/diff?${params}`);
  }

  watchStatus(): Promise<WatchStatus> {
    return this.json<WatchStatus>('/api/watch');
  }

  /** Has the server follow one more folder (an absolute path on its machine) until it stops. */
  watchFolder(directory: string): Promise<WatchFolderStatus> {
    return this.json<WatchFolderStatus>('/api/watch', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CONTROL_HEADER]: this.controlKey ?? '' },
      body: JSON.stringify({ directory }),
    });
  }

  async remove(keyOrId: string): Promise<DocumentSummary> {
    const document = await this.resolve(keyOrId);
    await this.json(`/api/documents/${document.id}`, { method: 'DELETE' });
    return document;
  }

  async reindex(keyOrId: string): Promise<IngestOutcome> {
    const document = await this.resolve(keyOrId);
    // The document is `queued` once this answers, so the wait below cannot see the old state.
    await this.json(`/api/documents/${document.id}/reindex`, { method: 'POST' });
    const outcome = await this.waitForDocument(document.id, document.key);
    // The server reports the document, not the execution: the same current version means no new one.
    if (outcome.status === 'ready' && outcome.version === document.currentVersion) {
      return { ...outcome, status: 'unchanged' };
    }
    return outcome;
  }

  async close(): Promise<void> {}

  /** The live document named by id, key, or key under `uploads/`. */
  private async resolve(keyOrId: string): Promise<DocumentSummary> {
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(keyOrId)) {
      return this.json<DocumentSummary>(`/api/documents/${keyOrId}`);
    }
    const keys = [keyOrId, `uploads/${keyOrId.replace(/^\.?\/+/, '')}`];
    const { items } = await this.documents({ name: keyOrId, limit: 200, offset: 0 });
    const found = keys.map((key) => items.find((d) => d.key === key)).find(Boolean);
    if (!found) throw new NotFoundError(`No document with id or key ${keyOrId}`);
    return found;
  }

  private async waitForDocument(id: string, key: string): Promise<IngestOutcome> {
    for (;;) {
      const doc = await this.json<{
        status: string;
        statusDetail: string | null;
        currentVersion: number | null;
      }>(`/api/documents/${id}`);
      if (doc.status === 'ready' || doc.status === 'failed') {
        return {
          key,
          documentId: id,
          version: doc.currentVersion ?? 0,
          status: doc.status,
          error: doc.status === 'failed' ? (doc.statusDetail ?? 'failed') : undefined,
        } as IngestOutcome;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** A call whose body and answer are JSON (or empty), over `httpCall`: no `fetch` to load. */
  private async json<T>(
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<T> {
    let answer: HttpAnswer;
    try {
      answer = await httpCall(`${this.url}${path}`, {
        ...init,
        headers: { ...init.headers, ...this.identity() },
      });
    } catch (error) {
      throw this.lost(error);
    }
    if (answer.status < 200 || answer.status > 299) throw new Error(errorMessage(answer));
    return (answer.body ? JSON.parse(answer.body) : undefined) as T;
  }

  /**
   * A call through `fetch`, for what needs its streams: a multipart upload, and an answer streamed
   * as Server-Sent Events.
   */
  private async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.identity())) headers.set(name, value);
    try {
      return await fetch(`${this.url}${path}`, { ...init, headers });
    } catch (error) {
      throw this.lost((error as { cause?: unknown }).cause ?? error);
    }
  }

  /** The client header the server's request checks ask for, and the token. */
  private identity(): Record<string, string> {
    return { [CLIENT_HEADER]: 'cli', ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}) };
  }

  /** A lost connection named: which server, and what it still has queued. */
  private lost(error: unknown): Error {
    const queued =
      this.waiting.size > 0
        ? `; still queued there: ${[...this.waiting].join(', ')} (they resume when it starts again)`
        : '';
    return new Error(`lost the DropQA server at ${this.url} (${reasonOf(error)})${queued}`, { cause: error });
  }
}

async function errorText(response: Response): Promise<string> {
  return errorMessage({
    status: response.status,
    statusText: response.statusText,
    body: await response.text(),
  });
}

/** The server's error message, else the status and the start of the body. */
function errorMessage(answer: HttpAnswer): string {
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: string } };
    return parsed.error?.message ?? answer.body;
  } catch {
    return `${answer.status} ${answer.statusText}: ${answer.body.slice(0, 200)}`;
  }
}

/** Reads a Server-Sent Events body into the events it carries. */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncIterable<QaEvent> {
  // Loaded by an answer only: the other commands need no SSE parser.
  const { readSse } = await import('../api/sse-read.ts');
  for await (const frame of readSse(body)) {
    if (frame.event !== 'message' && frame.data)
      yield { type: frame.event, data: JSON.parse(frame.data) } as QaEvent;
  }
}

/** `?collection=<name>` when a collection is chosen (the server checks the name). */
function collectionQuery(collection: string | undefined): string {
  return collection === undefined ? '' : `?collection=${encodeURIComponent(collection)}`;
}

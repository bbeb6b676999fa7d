import type { IngestOutcome } from '../pipeline/ingest.ts';
import type { QaEvent } from '../qa/events.ts';
import type { AskRequest } from '../qa/request.ts';
import type { SearchHit, SearchRequest } from '../search/index.ts';
import type { Backend } from './backend.ts';
import { type InputFile, readInput } from './files.ts';

const POLL_MS = 300;

/** The CLI talking to a running DropQA server over its HTTP API (the same SSE stream as the page). */
export class HttpBackend implements Backend {
  readonly description: string;

  constructor(private readonly url: string) {
    this.description = `server at ${url}`;
  }

  async ingest(documents: InputFile[], assets: InputFile[], onOutcome: (o: IngestOutcome) => void) {
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
    const { documents: submitted } = await this.json<{ documents: { id: string; key: string }[] }>(
      '/api/documents/upload',
      { method: 'POST', body: form },
    );
    const outcomes: IngestOutcome[] = [];
    await Promise.all(
      submitted.map(async ({ id, key }) => {
        const outcome = await this.waitForDocument(id, key);
        outcomes.push(outcome);
        onOutcome(outcome);
      }),
    );
    return outcomes;
  }

  async *ask(request: AskRequest): AsyncIterable<QaEvent> {
    const response = await fetch(`${this.url}/api/qa/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    if (!response.ok || !response.body) throw new Error(await errorText(response));
    yield* parseSse(response.body);
  }

  async search(request: SearchRequest): Promise<SearchHit[]> {
    const params = new URLSearchParams({
      q: request.query,
      kind: request.kind,
      limit: String(request.limit ?? 10),
    });
    if (request.filters?.version) params.set('version', String(request.filters.version));
    if (request.keywordMode) params.set('mode', request.keywordMode);
    return (await this.json<{ results: SearchHit[] }>(`/api/search?${params}`)).results;
  }

  async close(): Promise<void> {}

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

  private async json<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await fetch(`${this.url}${path}`, init);
    if (!response.ok) throw new Error(await errorText(response));
    return (await response.json()) as T;
  }
}

async function errorText(response: Response): Promise<string> {
  const body = await response.text();
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    return parsed.error?.message ?? body;
  } catch {
    return `${response.status} ${response.statusText}: ${body.slice(0, 200)}`;
  }
}

/** Reads a Server-Sent Events body into the events it carries. */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncIterable<QaEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      const type = block
        .split('\n')
        .find((line) => line.startsWith('event:'))
        ?.slice(6)
        .trim();
      if (type && data) yield { type, data: JSON.parse(data) } as QaEvent;
      end = buffer.indexOf('\n\n');
    }
  }
}

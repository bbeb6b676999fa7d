import type { Config } from '../config/index.ts';
import type { IngestOutcome } from '../pipeline/ingest.ts';
import { ask } from '../qa/ask.ts';
import type { QaEvent } from '../qa/events.ts';
import type { AskRequest } from '../qa/request.ts';
import { readServerLock } from '../runtime/lock.ts';
import { openRuntime } from '../runtime/runtime.ts';
import { type SearchHit, type SearchRequest, search } from '../search/index.ts';
import { type InputFile, readInput } from './files.ts';
import { HttpBackend } from './http-backend.ts';

/** What the CLI needs; served in-process, or by the running server when one holds the data folder. */
export interface Backend {
  readonly description: string;
  ingest(
    documents: InputFile[],
    assets: InputFile[],
    onOutcome: (o: IngestOutcome) => void,
  ): Promise<IngestOutcome[]>;
  ask(request: AskRequest): AsyncIterable<QaEvent>;
  search(request: SearchRequest): Promise<SearchHit[]>;
  close(): Promise<void>;
}

/**
 * The running server if one uses this data folder (PGlite is single-process, so the CLI must not
 * open the database beside it), else the product in-process.
 */
export async function openBackend(config: Config): Promise<Backend> {
  const lock = readServerLock(config.dataDir);
  if (lock) return new HttpBackend(lock.url);
  const rt = await openRuntime(config);
  return {
    description: `in-process (data: ${config.dataDir})`,
    async ingest(documents, assets, onOutcome) {
      for (const asset of assets) await rt.store.put(asset.key, readInput(asset));
      const files = documents.map((d) => ({ key: d.key, filename: d.filename, bytes: readInput(d) }));
      return rt.ingest.ingest(files, onOutcome);
    },
    ask: (request) => ask(rt.qa, request),
    search: (request) => search(rt.qa, request),
    close: () => rt.close(),
  };
}

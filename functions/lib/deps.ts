import { loadConfig } from '#shared/config/load.ts';
import { openDataApi } from '#shared/db/data-api.ts';
import { createProviders } from '#shared/llm/providers.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { createBlobStore } from '#shared/storage/create.ts';
import { dataApiOf } from './env.ts';

let opened: Promise<PipelineDeps> | undefined;

/**
 * The core's dependencies inside Lambda, opened once per container (reused across invocations): the
 * configuration from `DROPQA_*` variables, Aurora through the Data API (`database.dataApi`), the
 * bucket on S3, the configured providers. A failed open is not cached, so the next invocation tries
 * again.
 */
export function lambdaDeps(): Promise<PipelineDeps> {
  opened ??= open().catch((error: unknown) => {
    opened = undefined;
    throw error;
  });
  return opened;
}

async function open(): Promise<PipelineDeps> {
  const config = loadConfig();
  // No migrations here: the migration function applies them on deploy.
  const { db } = await openDataApi(dataApiOf(config));
  return { db, store: await createBlobStore(config), providers: createProviders(config), config };
}

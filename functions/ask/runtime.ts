import { SFNClient } from '@aws-sdk/client-sfn';
import type { Runtime } from '#shared/runtime/runtime.ts';
import { lambdaDeps } from '../lib/deps.ts';
import { readLambdaEnv } from '../lib/env.ts';
import { executionStarter } from '../lib/start-execution.ts';
import { lambdaIngestService } from './lambda-ingest.ts';

/**
 * What the HTTP app works with in Lambda: the same runtime as the local server, except that ingestion
 * is the deployed state machine (see `lambdaIngestService`). Opening makes no network call.
 */
export async function lambdaRuntime(): Promise<Runtime> {
  const deps = await lambdaDeps();
  const { STATE_MACHINE_ARN } = readLambdaEnv();
  const start = executionStarter(new SFNClient({}), STATE_MACHINE_ARN ?? '');
  const ingest = lambdaIngestService(deps, start);
  return {
    ...deps,
    ingest,
    qa: {
      db: deps.db,
      embedder: deps.providers.embedder,
      search: deps.config.search,
      providers: deps.providers,
    },
    close: async () => {},
  };
}

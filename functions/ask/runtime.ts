import { qaDepsOf } from '#shared/runtime/qa-deps.ts';
import type { Runtime } from '#shared/runtime/runtime.ts';
import { clearStaging, stagingDir } from '#shared/storage/staging.ts';
import { lambdaDeps } from '../lib/deps.ts';
import { readLambdaEnv } from '../lib/env.ts';
import type { StartPipeline } from '../lib/start-execution.ts';
import { lambdaIngestService } from './lambda-ingest.ts';

/**
 * What the HTTP app works with in Lambda: the same runtime as the local server, except that ingestion
 * is the deployed state machine (see `lambdaIngestService`). Opening makes no network call.
 */
export async function lambdaRuntime(): Promise<Runtime> {
  const deps = await lambdaDeps();
  // /tmp outlives an invocation cut off mid-upload; a container serves one request at a time.
  await clearStaging(stagingDir(deps.config.dataDir));
  const { STATE_MACHINE_ARN } = readLambdaEnv();
  // Only a reindex starts an execution from here (uploads start theirs through S3 events): the
  // Step Functions client loads on the first one, not at initialization.
  let starter: Promise<StartPipeline> | undefined;
  const start: StartPipeline = async (input) => {
    starter ??= Promise.all([import('@aws-sdk/client-sfn'), import('../lib/start-execution.ts')]).then(
      ([{ SFNClient }, { executionStarter }]) => executionStarter(new SFNClient({}), STATE_MACHINE_ARN ?? ''),
    );
    return (await starter)(input);
  };
  const ingest = lambdaIngestService(deps, start);
  return {
    ...deps,
    ingest,
    qa: qaDepsOf(deps),
    close: async () => {},
  };
}

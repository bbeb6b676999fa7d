import type { RDSDataClient } from '@aws-sdk/client-rds-data';

/** Aurora Serverless v2 at 0 ACUs takes up to ~15 s to resume; the whole wait is bounded here. */
const RESUME_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000, 8000];

/**
 * Makes the client retry calls answered with `DatabaseResumingException` (a paused cluster waking
 * up), which the SDK's standard retry strategy does not treat as retryable.
 *
 * @example retryWhileResuming(new RDSDataClient({}))
 */
export function retryWhileResuming(
  client: RDSDataClient,
  delaysMs: readonly number[] = RESUME_DELAYS_MS,
): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await next(args);
        } catch (error) {
          const delay = delaysMs[attempt];
          if ((error as { name?: string }).name !== 'DatabaseResumingException' || delay === undefined)
            throw error;
          await new Promise((resume) => setTimeout(resume, delay));
        }
      }
    },
    { step: 'initialize', name: 'dropqaRetryWhileResuming', override: true },
  );
}

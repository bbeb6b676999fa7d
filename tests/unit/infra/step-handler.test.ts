import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { stepHandler } from '../../../functions/lib/step-handler.ts';

const context = {
  functionName: 'dropqa-test',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:dropqa-test',
  memoryLimitInMB: '1024',
  awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  getRemainingTimeInMillis: () => 30_000,
} as Context;
const deps = async () => ({}) as PipelineDeps;

describe('stepHandler', () => {
  it('returns the step result as the Task output', async () => {
    const handler = stepHandler(
      'Activate',
      async (input) => ({ ...(input as object), outcome: 'ready' }),
      deps,
    );
    await expect(handler({ documentId: 'd', version: 1 }, context)).resolves.toEqual({
      documentId: 'd',
      version: 1,
      outcome: 'ready',
    });
  });

  it('reports a dropped database connection as TransientError, which the definition retries', async () => {
    const handler = stepHandler(
      'Parse',
      async () => {
        const cause = Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' });
        throw Object.assign(new Error('Failed query: select 1', { cause }), { name: 'DrizzleQueryError' });
      },
      deps,
    );
    const failure = await handler({}, context).catch((e: unknown) => e as Error);
    expect(failure).toMatchObject({ name: 'TransientError' });
    expect((failure as Error).message).not.toContain('select 1');
  });
});

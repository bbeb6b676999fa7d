import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { log } from '#shared/log/logger.ts';
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

  it("writes the core's log lines as Powertools JSON with the version, key and step appended", async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    // Powertools writes INFO to stdout, WARN and ERROR to stderr.
    const spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation(capture),
      vi.spyOn(process.stderr, 'write').mockImplementation(capture),
    ];
    try {
      const handler = stepHandler(
        'Summarize',
        async () => {
          log.warn('summarize: change summary failed', { reason: 'model down' });
          return null;
        },
        deps,
      );
      await handler({ documentId: 'd1', version: 3, key: 'uploads/a.md' }, context);
      await stepHandler('Register', async () => null, deps)({ key: 'uploads/b.md' }, context);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const lines = written
      .flatMap((chunk) => chunk.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const keys = { documentId: 'd1', version: 3, key: 'uploads/a.md', step: 'Summarize' };
    expect(lines.find((l) => l.message === 'summarize: change summary failed')).toMatchObject({
      level: 'WARN',
      reason: 'model down',
      function_request_id: context.awsRequestId,
      ...keys,
    });
    expect(lines.find((l) => l.message === 'Summarize finished')).toMatchObject({
      level: 'INFO',
      durationMs: expect.any(Number),
      ...keys,
    });
    // The keys of one invocation do not leak into the next.
    const register = lines.find((l) => l.message === 'Register finished');
    expect(register).toMatchObject({ key: 'uploads/b.md', step: 'Register' });
    expect(register).not.toHaveProperty('documentId');
  });
});

import { SFNClient } from '@aws-sdk/client-sfn';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, schema } from '#shared/db/index.ts';
import type { RegisterOutput } from '#shared/pipeline/contract.ts';
import { recordEndedExecution } from '#shared/pipeline/execution-ended.ts';
import { register } from '#shared/pipeline/steps/register.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { registrationReader } from '../../../functions/lib/execution-history.ts';
import { type AwsFront, frontClientOptions, jsonService, startAwsFront } from '../../fakes/aws-front.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const { documents, documentVersions } = schema;
const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:Ingestion';
const execution = (name: string) => `${MACHINE.replace(':stateMachine:', ':execution:')}:${name}`;

/** Step Functions' status event, as EventBridge delivers it to the function. */
function statusEvent(
  name: string,
  status: 'FAILED' | 'TIMED_OUT' | 'ABORTED',
  input: object,
  failure: { error?: string; cause?: string } = {},
) {
  return {
    version: '0',
    id: 'event-1',
    'detail-type': 'Step Functions Execution Status Change',
    source: 'aws.states',
    account: '123456789012',
    time: '2026-11-27T08:00:00Z',
    region: 'eu-west-1',
    resources: [execution(name)],
    detail: {
      executionArn: execution(name),
      stateMachineArn: MACHINE,
      name,
      status,
      startDate: 1_795_000_000_000,
      stopDate: 1_795_003_600_000,
      input: JSON.stringify(input),
      output: null,
      error: failure.error ?? null,
      cause: failure.cause ?? null,
    },
  };
}

describe('an ingestion execution that ended without MarkFailed recording it', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  /** What each execution's Register recorded (its history, in AWS). */
  const registered = new Map<string, RegisterOutput>();
  const registrationOf = async (arn: string) => registered.get(arn);

  /** Starts an "execution": Register creates a processing version of a new object. */
  const started = async (name: string, key: string) => {
    await deps.store.put(key, utf8(`# ${name}\n\nSome text of ${name}.`));
    const output = await register({ key }, deps);
    registered.set(execution(name), output);
    return output;
  };
  const versionOf = async ({ documentId, version }: RegisterOutput) => {
    const [row] = await deps.db
      .select()
      .from(documentVersions)
      .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)));
    const [doc] = await deps.db.select().from(documents).where(eq(documents.id, documentId));
    return { status: row?.status, error: row?.error, document: doc?.status };
  };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('marks the version of a timed-out execution failed with the reason', async () => {
    const ref = await started('slow', 'team/slow.md');
    expect((await versionOf(ref)).status).toBe('processing');
    const result = await recordEndedExecution(
      statusEvent('slow', 'TIMED_OUT', { key: 'team/slow.md' }),
      deps,
      registrationOf,
    );
    expect(result).toMatchObject({ recorded: true, documentId: ref.documentId, version: ref.version });
    expect(await versionOf(ref)).toEqual({
      status: 'failed',
      error: expect.stringMatching(/took longer than the state machine allows/),
      document: 'failed',
    });
  });

  it('marks an aborted execution and a failure no Catch saw (the state limit) with their reasons', async () => {
    const stopped = await started('stopped', 'team/stopped.md');
    await recordEndedExecution(
      statusEvent('stopped', 'ABORTED', { key: 'team/stopped.md' }),
      deps,
      registrationOf,
    );
    expect((await versionOf(stopped)).error).toMatch(/stopped before it finished/);
    const large = await started('large', 'team/large.md');
    await recordEndedExecution(
      statusEvent(
        'large',
        'FAILED',
        { key: 'team/large.md' },
        {
          error: 'States.DataLimitExceeded',
          cause:
            'The state/task returned a result with a size exceeding the maximum number of bytes service limit.',
        },
      ),
      deps,
      registrationOf,
    );
    expect(await versionOf(large)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/exceeding the maximum/),
    });
  });

  it('leaves a failure MarkFailed already recorded as it is (the rule sees every failure)', async () => {
    const ref = await started('caught', 'team/caught.md');
    await deps.db
      .update(documentVersions)
      .set({ status: 'failed', error: 'the parser gave up' })
      .where(and(eq(documentVersions.documentId, ref.documentId), eq(documentVersions.version, ref.version)));
    const result = await recordEndedExecution(
      statusEvent(
        'caught',
        'FAILED',
        { key: 'team/caught.md' },
        { error: 'ParseError', cause: 'the parser gave up' },
      ),
      deps,
      registrationOf,
    );
    expect(result.recorded).toBe(false);
    expect((await versionOf(ref)).error).toBe('the parser gave up');
  });

  it('refuses an event that is not an execution status change, naming the field', async () => {
    await expect(
      recordEndedExecution(
        {
          source: 'aws.states',
          'detail-type': 'Step Functions Execution Status Change',
          detail: { status: 'SUCCEEDED' },
        },
        deps,
        registrationOf,
      ),
    ).rejects.toThrow(/ExecutionEnded input is invalid: .*detail\.(executionArn|status)/);
  });
});

describe('registrationReader (the execution history, over the Step Functions protocol)', () => {
  let front: AwsFront;
  let client: SFNClient;
  const requests: { executionArn: string; nextToken?: string }[] = [];
  const REGISTERED = { documentId: '0b0f1d7e-7a53-4c55-8a3b-2b1f1f0d9a11', version: 3, outcome: 'created' };

  beforeAll(async () => {
    // GetExecutionHistory in pages of two events: Register exits on the second page.
    const events = [
      { id: 1, type: 'ExecutionStarted', timestamp: 1 },
      {
        id: 2,
        type: 'TaskStateEntered',
        timestamp: 1,
        stateEnteredEventDetails: { name: 'Register', input: '{}' },
      },
      { id: 3, type: 'TaskSucceeded', timestamp: 2 },
      {
        id: 4,
        type: 'TaskStateExited',
        timestamp: 2,
        stateExitedEventDetails: {
          name: 'Register',
          output: JSON.stringify({ key: 'team/a.md', register: REGISTERED }),
        },
      },
    ];
    // Pages of two events; an execution other than `known` ended before Register finished.
    front = await startAwsFront({
      states: jsonService({
        'AWSStepFunctions.GetExecutionHistory': (request) => {
          const { executionArn, nextToken } = request as { executionArn: string; nextToken?: string };
          requests.push({ executionArn, nextToken });
          if (!executionArn.endsWith(':known')) return { body: { events: events.slice(0, 1) } };
          const start = Number(nextToken ?? 0);
          const next = start + 2 < events.length ? String(start + 2) : undefined;
          return { body: { events: events.slice(start, start + 2), nextToken: next } };
        },
      }),
    });
    client = new SFNClient(frontClientOptions(front));
  });
  afterAll(() => front.close());

  it('finds the version Register created, paging through the history', async () => {
    await expect(registrationReader(client)(execution('known'))).resolves.toEqual(REGISTERED);
    expect(requests.map((r) => r.nextToken)).toEqual([undefined, '2']);
  });

  it('answers undefined when Register never finished', async () => {
    await expect(registrationReader(client)(execution('early'))).resolves.toBeUndefined();
  });
});

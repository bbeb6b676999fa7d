import { SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionStarter } from '../../../functions/lib/start-execution.ts';
import { type AwsFront, frontClientOptions, jsonService, startAwsFront } from '../../fakes/aws-front.ts';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:DropQAIngestion';

describe('executionStarter', () => {
  let front: AwsFront;
  let client: SFNClient;
  /** Execution names already used, as Step Functions keeps them after the execution finished. */
  const finished = new Set<string>();

  beforeAll(async () => {
    // Step Functions' JSON protocol: a finished execution's name answers ExecutionAlreadyExists.
    front = await startAwsFront({
      states: jsonService({
        'AWSStepFunctions.StartExecution': ({ name, stateMachineArn }) => {
          if (stateMachineArn !== MACHINE) {
            return {
              status: 400,
              body: { __type: 'StateMachineDoesNotExist', message: 'State Machine does not exist' },
            };
          }
          if (typeof name === 'string' && finished.has(name)) {
            return {
              status: 400,
              body: { __type: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${name}'` },
            };
          }
          if (typeof name === 'string') finished.add(name);
          return { body: { executionArn: `${MACHINE}:${name ?? 'unnamed'}`, startDate: 1 } };
        },
      }),
    });
    client = new SFNClient(frontClientOptions(front, 'us-east-1'));
  });
  afterAll(() => front.close());
  it('treats a duplicate S3 event whose execution has finished as done, not as a failure', async () => {
    const start = executionStarter(client, MACHINE);
    const input = { key: 'team/report.docx', sequencer: '0062E9A4B1C3D2E1F0' };
    const first = await start(input);
    const again = await start(input);
    expect(again.alreadyDone).toBe(true);
    expect(again.executionArn?.replace(':execution:', ':stateMachine:')).toBe(first.executionArn);
  });

  it('still fails on any other refusal (the event goes to the dead-letter queue)', async () => {
    const start = executionStarter(client, `${MACHINE}Missing`);
    await expect(start({ key: 'team/report.docx', sequencer: '0062E9A4B1C3D2E1F1' })).rejects.toThrow(
      /does not exist/,
    );
  });
});

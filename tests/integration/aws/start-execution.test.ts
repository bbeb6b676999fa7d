import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionStarter } from '../../../functions/lib/start-execution.ts';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:DropQAIngestion';

describe('executionStarter', () => {
  let server: Server;
  let client: SFNClient;
  /** Execution names already used, as Step Functions keeps them after the execution finished. */
  const finished = new Set<string>();

  beforeAll(async () => {
    // Step Functions' JSON protocol: a finished execution's name answers ExecutionAlreadyExists.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const { name, stateMachineArn } = JSON.parse(body) as { name?: string; stateMachineArn: string };
        res.setHeader('content-type', 'application/x-amz-json-1.0');
        if (stateMachineArn !== MACHINE) {
          res.statusCode = 400;
          res.end(
            JSON.stringify({ __type: 'StateMachineDoesNotExist', message: 'State Machine does not exist' }),
          );
          return;
        }
        if (name && finished.has(name)) {
          res.statusCode = 400;
          res.end(
            JSON.stringify({
              __type: 'ExecutionAlreadyExists',
              message: `Execution Already Exists: '${name}'`,
            }),
          );
          return;
        }
        res.end(JSON.stringify({ executionArn: `${MACHINE}:${name ?? 'unnamed'}`, startDate: 1 }));
        if (name) finished.add(name);
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    client = new SFNClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

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

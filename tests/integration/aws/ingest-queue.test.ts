import { createHash } from 'node:crypto';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineInput } from '#shared/pipeline/contract.ts';
import { handleQueuedEvents, REQUEUE_DELAY_SECONDS } from '../../../functions/ingest/queued-events.ts';
import { routeObjectEvent } from '../../../functions/ingest/route-event.ts';
import { requeuer, runningExecutions } from '../../../functions/lib/pipeline-slots.ts';
import {
  type AwsFront,
  frontClientOptions,
  jsonCall,
  jsonService,
  startAwsFront,
  type WireRequest,
} from '../../fakes/aws-front.ts';
import { objectCreatedEvent, objectDeletedEvent } from './s3-events.ts';

const MACHINE = 'arn:aws:states:eu-west-1:123456789012:stateMachine:Ingestion';
const QUEUE = 'https://sqs.eu-west-1.amazonaws.com/123456789012/IngestQueue';

/** A burst of uploads as the queue hands them to the function: one message per S3 event. */
const burst = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    messageId: `m${from + i}`,
    body: JSON.stringify(objectCreatedEvent(`uploads/doc-${from + i}.md`, `00${(from + i).toString(16)}`)),
  }));

describe('the ingest queue: at most pipelineConcurrency executions at once', () => {
  /** The executions running (started and not finished) and the messages sent back to wait. */
  const running = new Set<string>();
  const requeued: { body: string; delaySeconds: number }[] = [];
  const removed: string[] = [];
  let failStart = false;
  const deps = {
    route: (event: unknown, start: (input: PipelineInput) => Promise<{ executionArn?: string }>) =>
      routeObjectEvent(event, {
        start,
        remove: async ({ key }) => {
          removed.push(key);
          return { removed: true } as never;
        },
      }),
    start: async (input: PipelineInput) => {
      if (failStart) throw new Error('Step Functions is unavailable');
      running.add(input.key);
      return { executionArn: `${MACHINE}:${input.key}` };
    },
    running: async (limit: number) => Math.min(limit, running.size),
    requeue: async (body: string, delaySeconds: number) => {
      requeued.push({ body, delaySeconds });
    },
    limit: 3,
  };

  it('starts as many as there are free slots and sends the rest back to wait, removals included at once', async () => {
    const records = [
      ...burst(0, 5),
      { messageId: 'gone', body: JSON.stringify(objectDeletedEvent('team/old.md', '0099')) },
      ...burst(5, 4),
    ];
    const result = await handleQueuedEvents(records, deps);
    expect(result.batchItemFailures).toEqual([]);
    expect([...running]).toEqual(['uploads/doc-0.md', 'uploads/doc-1.md', 'uploads/doc-2.md']);
    expect(requeued).toHaveLength(6);
    expect(requeued.every((r) => r.delaySeconds === REQUEUE_DELAY_SECONDS)).toBe(true);
    // A removal never waits for a slot.
    expect(removed).toEqual(['team/old.md']);
  });

  it('starts the waiting ones as executions finish, never more than the limit at once', async () => {
    let peak = running.size;
    while (requeued.length > 0) {
      // One execution finishes; the waiting messages come back as the next batch.
      running.delete([...running][0] as string);
      const batch = requeued.splice(0).map((r, i) => ({ messageId: `again-${i}`, body: r.body }));
      await handleQueuedEvents(batch, deps);
      peak = Math.max(peak, running.size);
    }
    expect(peak).toBe(3);
    // Every upload of the burst was started in the end, none lost.
    expect(running.size).toBe(3);
  });

  it('reports a message whose event fails for SQS to deliver again (and dead-letter in the end)', async () => {
    running.clear();
    failStart = true;
    const result = await handleQueuedEvents([...burst(20, 1), { messageId: 'junk', body: 'not json' }], deps);
    failStart = false;
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm20' }, { itemIdentifier: 'junk' }]);
  });
});

describe('the slot count and the requeue, over the Step Functions and SQS protocols', () => {
  let front: AwsFront;
  const lastCall = () => jsonCall(front.requests.at(-1) as WireRequest);

  beforeAll(async () => {
    const executions = Array.from({ length: 5 }, (_, i) => ({
      executionArn: `${MACHINE}:e${i}`,
      stateMachineArn: MACHINE,
      name: `e${i}`,
      status: 'RUNNING',
      startDate: 1,
    }));
    front = await startAwsFront({
      states: jsonService({
        'AWSStepFunctions.ListExecutions': ({ maxResults }) => ({
          body: { executions: executions.slice(0, Number(maxResults)), nextToken: 'more' },
        }),
      }),
      sqs: jsonService({
        'AmazonSQS.SendMessage': ({ MessageBody }) => ({
          body: {
            MessageId: 'new-1',
            MD5OfMessageBody: createHash('md5').update(String(MessageBody)).digest('hex'),
          },
        }),
      }),
    });
  });
  afterAll(() => front.close());
  const options = () => frontClientOptions(front);

  it('counts running executions with one ListExecutions page of at most the limit', async () => {
    await expect(runningExecutions(new SFNClient(options()), MACHINE)(3)).resolves.toBe(3);
    expect(lastCall()).toEqual({
      target: 'AWSStepFunctions.ListExecutions',
      body: { stateMachineArn: MACHINE, statusFilter: 'RUNNING', maxResults: 3 },
    });
  });

  it('sends a waiting event back to the queue with its delay', async () => {
    await requeuer(new SQSClient(options()), QUEUE)('{"detail-type":"Object Created"}', 120);
    expect(lastCall()).toEqual({
      target: 'AmazonSQS.SendMessage',
      body: { QueueUrl: QUEUE, MessageBody: '{"detail-type":"Object Created"}', DelaySeconds: 120 },
    });
  });
});

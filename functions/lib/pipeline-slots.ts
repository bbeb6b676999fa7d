import { ExecutionStatus, ListExecutionsCommand, type SFNClient } from '@aws-sdk/client-sfn';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * Counts the state machine's running executions, up to `limit` (one ListExecutions page: enough to
 * tell whether a slot is free). Step Functions lists executions eventually consistently, so one that
 * has just started may be missed: the bound holds to within the starts of the last few seconds.
 *
 * @example const running = runningExecutions(sfn, process.env.STATE_MACHINE_ARN); await running(4)
 */
export function runningExecutions(client: SFNClient, stateMachineArn: string) {
  return async (limit: number): Promise<number> => {
    const page = await client.send(
      new ListExecutionsCommand({
        stateMachineArn,
        statusFilter: ExecutionStatus.RUNNING,
        maxResults: limit,
      }),
    );
    return page.executions?.length ?? 0;
  };
}

/**
 * Sends a message body to the queue again, delivered after `delaySeconds` (at most 900): a new
 * message, so waiting for a slot never counts towards the queue's receive limit.
 */
export function requeuer(client: SQSClient, queueUrl: string) {
  return async (body: string, delaySeconds: number): Promise<void> => {
    await client.send(
      new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body, DelaySeconds: delaySeconds }),
    );
  };
}

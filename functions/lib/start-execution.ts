import { createHash } from 'node:crypto';
import { type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { PipelineInput } from '#shared/pipeline/contract.ts';

export type StartPipeline = (input: PipelineInput) => Promise<{ executionArn?: string }>;

/**
 * Starts ingestion executions on the deployed state machine. An input carrying an S3 `sequencer`
 * gets a name derived from key and sequencer, so a redelivered event maps to the execution it
 * already started (Step Functions answers a repeated name and input with that execution).
 *
 * @example const start = executionStarter(new SFNClient({}), process.env.STATE_MACHINE_ARN);
 */
export function executionStarter(client: SFNClient, stateMachineArn: string): StartPipeline {
  return async (input) => {
    const name = input.sequencer
      ? `s3-${createHash('sha256').update(`${input.key}\n${input.sequencer}`).digest('hex').slice(0, 64)}`
      : undefined;
    const result = await client.send(
      new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input), name }),
    );
    return { executionArn: result.executionArn };
  };
}

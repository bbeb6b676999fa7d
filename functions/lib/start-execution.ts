import { createHash } from 'node:crypto';
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { PipelineInput } from '#shared/pipeline/contract.ts';

export type StartPipeline = (
  input: PipelineInput,
) => Promise<{ executionArn?: string /** The event's execution had already run. */; alreadyDone?: boolean }>;

/**
 * Starts ingestion executions on the deployed state machine. An input carrying an S3 `sequencer`
 * gets a name derived from key and sequencer, so a redelivered event maps to the execution it
 * already started (Step Functions answers a repeated name and input with that execution while it
 * runs, and `ExecutionAlreadyExists` once it has finished: that event was handled, so it is done, not
 * a failure for the dead-letter queue).
 *
 * @example const start = executionStarter(new SFNClient({}), process.env.STATE_MACHINE_ARN);
 */
export function executionStarter(client: SFNClient, stateMachineArn: string): StartPipeline {
  return async (input) => {
    const name = input.sequencer
      ? `s3-${createHash('sha256').update(`${input.key}\n${input.sequencer}`).digest('hex').slice(0, 64)}`
      : undefined;
    try {
      const result = await client.send(
        new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input), name }),
      );
      return { executionArn: result.executionArn };
    } catch (error) {
      if (!(name && error instanceof ExecutionAlreadyExists)) throw error;
      return {
        executionArn: `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`,
        alreadyDone: true,
      };
    }
  };
}

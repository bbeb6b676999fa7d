import '#shared/pipeline/polyfill.ts';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { PipelineInput } from '#shared/pipeline/contract.ts';
import { TASK_NAMES } from '#shared/pipeline/definition.ts';
import { STEPS } from '#shared/pipeline/step-table.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';

/**
 * Runs a definition taken from a synthesized template with aws-local-stepfunctions (the local
 * runner's engine), each substituted Lambda ARN answered by the in-process step of its state.
 */
export function deployedMachine(definition: Record<string, unknown>, deps: PipelineDeps) {
  const arns = Object.fromEntries(
    TASK_NAMES.map((t) => [`\${${t}Arn}`, `arn:aws:lambda:us-east-1:123456789012:function:${t}`]),
  );
  const text = JSON.stringify(definition).replace(/\$\{[A-Za-z]+Arn\}/g, (m) => arns[m] ?? m);
  const machine = new StateMachine(JSON.parse(text) as StateMachineDefinition);
  const handlers = Object.fromEntries(
    TASK_NAMES.map((task) => [task, (input: unknown) => STEPS[task](input, deps) as Promise<never>]),
  );
  return {
    /** One execution; resolves with its output, rejects with the Fail state's error. */
    run: (input: PipelineInput): Promise<unknown> =>
      machine.run(input as never, {
        overrides: {
          taskResourceLocalHandlers: handlers,
          retryIntervalOverrides: Object.fromEntries(TASK_NAMES.map((t) => [t, 0])),
        },
      }).result,
  };
}

import '#shared/pipeline/polyfill.ts';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { PipelineInput } from '#shared/pipeline/contract.ts';
import { TASK_NAMES, type TaskName } from '#shared/pipeline/definition.ts';
import { runWithinLimits } from '#shared/pipeline/execution-limits.ts';
import { STEPS } from '#shared/pipeline/step-table.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';

export type TaskHandlers = Record<TaskName, (input: unknown) => Promise<unknown>>;

/** Each Task answered by the in-process step of its state. */
export const inProcessSteps = (deps: PipelineDeps): TaskHandlers =>
  Object.fromEntries(
    TASK_NAMES.map((task) => [task, (input: unknown) => STEPS[task](input, deps)]),
  ) as TaskHandlers;

/**
 * Runs a definition taken from a synthesized template with aws-local-stepfunctions (the local
 * runner's engine), each substituted Lambda ARN answered by its state's handler (the in-process
 * steps, or the deployed functions' bundles), held to Step Functions' state and history limits
 * (`runWithinLimits`).
 */
export function deployedMachine(definition: Record<string, unknown>, handlers: TaskHandlers) {
  const arns = Object.fromEntries(
    TASK_NAMES.map((t) => [`\${${t}Arn}`, `arn:aws:lambda:us-east-1:123456789012:function:${t}`]),
  );
  const text = JSON.stringify(definition).replace(/\$\{[A-Za-z]+Arn\}/g, (m) => arns[m] ?? m);
  const machine = new StateMachine(JSON.parse(text) as StateMachineDefinition);
  return {
    /** One execution; resolves with its output, rejects with the Fail state's error. */
    run: (input: PipelineInput): Promise<unknown> =>
      runWithinLimits(machine, input as never, {
        overrides: {
          taskResourceLocalHandlers: handlers as never,
          retryIntervalOverrides: Object.fromEntries(TASK_NAMES.map((t) => [t, 0])),
        },
      }),
  };
}

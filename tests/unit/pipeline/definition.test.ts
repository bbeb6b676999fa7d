import aslValidator from 'asl-validator';
import { describe, expect, it } from 'vitest';
import type { State, StateMachineDefinition, TaskState } from '#shared/pipeline/asl.ts';
import { localResources, pipelineDefinition, TASK_NAMES } from '#shared/pipeline/definition.ts';
import { toStepError } from '#shared/pipeline/step-error.ts';

const ARNS = Object.fromEntries(
  TASK_NAMES.map((name) => [
    name,
    `arn:aws:lambda:eu-west-1:123456789012:function:dropqa-${name.toLowerCase()}`,
  ]),
) as ReturnType<typeof localResources>;

function allStates(machine: { States: Record<string, State> }): [string, State][] {
  return Object.entries(machine.States).flatMap(([name, state]) =>
    state.Type === 'Map'
      ? [[name, state] as [string, State], ...allStates(state.ItemProcessor)]
      : [[name, state]],
  );
}

function tasks(definition: StateMachineDefinition): [string, TaskState][] {
  return allStates(definition).filter((entry): entry is [string, TaskState] => entry[1].Type === 'Task');
}

describe('pipelineDefinition', () => {
  it('is valid Amazon States Language with ARN and path checks', () => {
    for (const resources of [ARNS, localResources()]) {
      const result = aslValidator(structuredClone(pipelineDefinition(resources)), {
        checkArn: true,
        checkPaths: true,
      });
      expect(result.errorsText('\n')).toBe('');
      expect(result.isValid).toBe(true);
    }
  });

  it('is rejected by the same validator when a transition has no target', () => {
    const broken = structuredClone(pipelineDefinition(ARNS));
    (broken.States.Parse as TaskState).Next = 'Nowhere';
    expect(aslValidator(broken, { checkArn: true, checkPaths: true }).isValid).toBe(false);
  });

  it('has one Task state per task name, each with its own resource', () => {
    const found = tasks(pipelineDefinition(ARNS));
    expect(found.map(([name]) => name).sort()).toEqual([...TASK_NAMES].sort());
    for (const [name, state] of found) expect(state.Resource).toBe(ARNS[name as keyof typeof ARNS]);
  });

  it('runs Register, the outcome choice, Parse, Images, Summarize, Topics, Activate in that order', () => {
    const { StartAt, States } = pipelineDefinition(ARNS);
    const order: string[] = [];
    let name: string | undefined = StartAt;
    while (name) {
      order.push(name);
      const state: State | undefined = States[name];
      name = state?.Type === 'Choice' ? state.Default : state && 'Next' in state ? state.Next : undefined;
    }
    expect(order).toEqual([
      'Register',
      'CheckRegistration',
      'Parse',
      'Images',
      'Summarize',
      'Summarized',
      'Topics',
      'Activate',
      'Done',
    ]);
  });

  it('stops with NoChange when Register finds the same bytes', () => {
    const { States } = pipelineDefinition(ARNS);
    const choice = States.CheckRegistration;
    expect(choice?.Type).toBe('Choice');
    if (choice?.Type !== 'Choice') return;
    const unchanged = choice.Choices.find((c) => c.StringEquals === 'unchanged');
    expect(unchanged).toMatchObject({ Variable: '$.register.outcome', Next: 'NoChange' });
    expect(States.NoChange).toMatchObject({ Type: 'Succeed' });
  });

  it('loops DescribeImage over the images with a cursor and a count in the state, never their list', () => {
    const { States } = pipelineDefinition(ARNS);
    expect(States.Images).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.parse.images.left', NumericGreaterThan: 0, Next: 'DescribeImage' }],
      Default: 'Summarize',
    });
    expect(States.DescribeImage).toMatchObject({
      Type: 'Task',
      Parameters: { 'after.$': '$.parse.images.after' },
      ResultPath: '$.parse.images',
      Next: 'Images',
    });
    expect(Object.values(States).some((state) => state.Type === 'Map')).toBe(false);
  });

  it('calls Summarize again until it reports done', () => {
    const { States } = pipelineDefinition(ARNS);
    expect(States.Summarize).toMatchObject({ ResultPath: '$.summarize', Next: 'Summarized' });
    expect(States.Summarized).toMatchObject({
      Type: 'Choice',
      Choices: [{ Variable: '$.summarize.done', BooleanEquals: false, Next: 'Summarize' }],
      Default: 'Topics',
    });
  });

  it('retries every Task on the transient and Lambda service errors with backoff and full jitter', () => {
    // Literal values, not the constant that builds them: a change to what is retried must show here.
    for (const [name, state] of tasks(pipelineDefinition(ARNS))) {
      expect(state.Retry, name).toEqual([
        {
          ErrorEquals: [
            'TransientError',
            'ThrottlingError',
            'Lambda.ServiceException',
            'Lambda.AWSLambdaException',
            'Lambda.SdkClientException',
            'Lambda.TooManyRequestsException',
          ],
          IntervalSeconds: 2,
          BackoffRate: 2,
          MaxAttempts: 3,
          MaxDelaySeconds: 30,
          JitterStrategy: 'FULL',
        },
      ]);
    }
  });

  it('retries the error a step reports for a dropped database connection', () => {
    const dropped = new Error('Failed query: select 1', {
      cause: new Error('Connection terminated unexpectedly'),
    });
    const retried = pipelineDefinition(ARNS).States.Parse as TaskState;
    expect(retried.Retry?.[0]?.ErrorEquals).toContain(toStepError(dropped).name);
    const refused = toStepError(new Error('Failed query: insert', { cause: new Error('syntax error') }));
    expect(retried.Retry?.[0]?.ErrorEquals).not.toContain(refused.name);
  });

  it('catches every error of the work steps into MarkFailed with the error at $.error', () => {
    const { States } = pipelineDefinition(ARNS);
    for (const name of ['Register', 'Parse', 'DescribeImage', 'Summarize', 'Topics', 'Activate']) {
      const state = States[name] as { Catch?: unknown };
      expect(state.Catch, name).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' },
      ]);
    }
    expect(States.MarkFailed).toMatchObject({ Type: 'Task', Next: 'Failed' });
    expect(States.Failed).toMatchObject({ Type: 'Fail', ErrorPath: '$.error.Error' });
  });

  it('passes identifiers only: Tasks after Register take the document id, version and key', () => {
    for (const [name, state] of tasks(pipelineDefinition(ARNS))) {
      if (['Register', 'MarkFailed', 'DescribeImage'].includes(name)) continue;
      expect(state.Parameters, name).toEqual({
        'documentId.$': '$.register.documentId',
        'version.$': '$.register.version',
        'key.$': '$.key',
      });
    }
  });
});

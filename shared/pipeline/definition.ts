import type { Catcher, PayloadTemplate, Retrier, StateMachineDefinition, TaskState } from './asl.ts';

/** The Task states; each is one step function (shared/pipeline/steps) and, in AWS, one Lambda. */
export type TaskName =
  | 'Register'
  | 'Parse'
  | 'DescribeImage'
  | 'Summarize'
  | 'Topics'
  | 'Activate'
  | 'MarkFailed';

export const TASK_NAMES: readonly TaskName[] = [
  'Register',
  'Parse',
  'DescribeImage',
  'Summarize',
  'Topics',
  'Activate',
  'MarkFailed',
];

/**
 * Errors worth another attempt: our own transient and throttling errors (by `name`) and the Lambda
 * service errors Step Functions reports when an invocation itself fails.
 */
export const TRANSIENT_ERRORS: readonly string[] = [
  'TransientError',
  'ThrottlingError',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

const RETRY: Retrier[] = [
  {
    ErrorEquals: [...TRANSIENT_ERRORS],
    IntervalSeconds: 2,
    BackoffRate: 2,
    MaxAttempts: 3,
    MaxDelaySeconds: 30,
    JitterStrategy: 'FULL',
  },
];

const TO_MARK_FAILED: Catcher[] = [
  { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' },
];

/**
 * Steps receive identifiers only; the data lives in Postgres and the bucket. The key is not read by
 * the steps: it is there for their log lines.
 */
const VERSION_REF: PayloadTemplate = {
  'documentId.$': '$.register.documentId',
  'version.$': '$.register.version',
  'key.$': '$.key',
};

/**
 * Each Task state's TimeoutSeconds. Lambda caps a run at 900 s and each function's timeout is a
 * little above its state's (infra/stacks/pipeline.ts), so the state times out first and its Retry
 * and Catch decide; the same bounds apply locally so both runners time out alike.
 */
export const TASK_TIMEOUT_SECONDS: Record<TaskName, number> = {
  Register: 300,
  Parse: 870,
  DescribeImage: 300,
  Summarize: 870,
  Topics: 300,
  Activate: 60,
  MarkFailed: 60,
};

/**
 * How long the resumable steps start new work before handing back to the state machine, which
 * loops them with a cursor in the state: about half their state's timeout, so calls in flight and
 * the writes after them finish in time. DescribeImage reads images in ordinal order after the
 * cursor; Summarize resumes from the section summaries already written.
 */
export const STEP_BUDGET_MS = {
  DescribeImage: (TASK_TIMEOUT_SECONDS.DescribeImage * 1000) / 2,
  Summarize: (TASK_TIMEOUT_SECONDS.Summarize * 1000) / 2,
} as const;

function task(
  resource: string,
  timeoutSeconds: number,
  rest: Partial<TaskState> & { Next: string },
): TaskState {
  return {
    Type: 'Task',
    Resource: resource,
    TimeoutSeconds: timeoutSeconds,
    Retry: RETRY,
    Catch: TO_MARK_FAILED,
    ...rest,
  } as TaskState;
}

/**
 * The ingestion state machine as an Amazon States Language document. CDK deploys it with Lambda ARNs
 * as `resources`; the local runner executes the very same document, each Task mapped by name to its
 * in-process step.
 *
 * Input contract (what any caller, e.g. an EventBridge rule on S3 "Object Created" with an input
 * transformer, passes to StartExecution), at most a few hundred bytes:
 *
 *   { "key": "uploads/report.md", "documentId": "<uuid>"?, "force": false? }
 *
 * - `key` (required): the object key in the documents bucket.
 * - `documentId` (optional): the live document that the caller already created for this key (the
 *   upload API does, so it can answer with an id at once); without it Register finds or creates the
 *   live document for the key.
 * - `force` (optional): process even when the bytes equal the latest version's (reindex).
 *
 * Output on success: `{ documentId, version, outcome: 'ready' | 'unchanged' }`. On failure the
 * execution fails with the step's error name and a readable cause, after MarkFailed recorded it on
 * the version (a file rejected by Register fails with `UnsupportedDocumentError`, already recorded).
 *
 * @example pipelineDefinition(localResources()) // the document the local runner executes
 */
export function pipelineDefinition(resources: Record<TaskName, string>): StateMachineDefinition {
  return {
    Comment: 'DropQA ingestion: register, parse, describe images, summarize, topics, activate',
    StartAt: 'Register',
    States: {
      Register: task(resources.Register, TASK_TIMEOUT_SECONDS.Register, {
        Comment: 'Hash the object, find or create its document, create version n+1 unless unchanged',
        ResultPath: '$.register',
        Next: 'CheckRegistration',
      }),
      CheckRegistration: {
        Type: 'Choice',
        Choices: [
          { Variable: '$.register.outcome', StringEquals: 'unchanged', Next: 'NoChange' },
          { Variable: '$.register.outcome', StringEquals: 'rejected', Next: 'Rejected' },
        ],
        Default: 'Parse',
      },
      NoChange: { Type: 'Succeed', Comment: 'Same bytes as the latest version', OutputPath: '$.register' },
      Rejected: {
        Type: 'Fail',
        Comment: 'Register recorded the failed version (unsupported, empty, too large)',
        Error: 'UnsupportedDocumentError',
        CausePath: '$.register.reason',
      },
      Parse: task(resources.Parse, TASK_TIMEOUT_SECONDS.Parse, {
        Comment: 'Object -> normalized tree -> nodes; images and the Markdown rendition to the bucket',
        Parameters: VERSION_REF,
        ResultPath: '$.parse',
        Next: 'Images',
      }),
      // The state holds counts and a cursor, never the image list: Step Functions caps a state at
      // 256 KB (States.DataLimitExceeded, which no Catch sees) and an execution at 25,000 history
      // events, which an inline Map of one iteration per image (~7 events each) would pass.
      Images: {
        Type: 'Choice',
        Comment: 'Images left to describe: DescribeImage takes the next ones (at most its budget each time)',
        Choices: [{ Variable: '$.parse.images.left', NumericGreaterThan: 0, Next: 'DescribeImage' }],
        Default: 'Summarize',
      },
      DescribeImage: task(resources.DescribeImage, TASK_TIMEOUT_SECONDS.DescribeImage, {
        Comment: 'OCR and a description for the next images after the cursor (ordinal order)',
        Parameters: { ...VERSION_REF, 'after.$': '$.parse.images.after' },
        ResultPath: '$.parse.images',
        Next: 'Images',
      }),
      Summarize: task(resources.Summarize, TASK_TIMEOUT_SECONDS.Summarize, {
        Comment: 'Bottom-up section and document summaries, then embeddings; resumes until done',
        Parameters: VERSION_REF,
        ResultPath: '$.summarize',
        Next: 'Summarized',
      }),
      Summarized: {
        Type: 'Choice',
        Comment:
          'A long document is summarized over several invocations (the written summaries are the cursor)',
        Choices: [{ Variable: '$.summarize.done', BooleanEquals: false, Next: 'Summarize' }],
        Default: 'Topics',
      },
      Topics: task(resources.Topics, TASK_TIMEOUT_SECONDS.Topics, {
        Comment: 'Extract topics and link the document',
        Parameters: VERSION_REF,
        ResultPath: null,
        Next: 'Activate',
      }),
      Activate: task(resources.Activate, TASK_TIMEOUT_SECONDS.Activate, {
        Comment: 'Make version n current and the document ready, in one transaction',
        Parameters: VERSION_REF,
        ResultPath: '$.activate',
        Next: 'Done',
      }),
      Done: { Type: 'Succeed', OutputPath: '$.activate' },
      MarkFailed: {
        Type: 'Task',
        Resource: resources.MarkFailed,
        Comment: 'Record the failure on the version; the previous version stays current',
        TimeoutSeconds: TASK_TIMEOUT_SECONDS.MarkFailed,
        Retry: RETRY,
        ResultPath: '$.failure',
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.markFailedError', Next: 'FailedUnrecorded' }],
        Next: 'Failed',
      },
      Failed: { Type: 'Fail', ErrorPath: '$.error.Error', CausePath: '$.failure.reason' },
      FailedUnrecorded: {
        Type: 'Fail',
        Comment: 'MarkFailed itself failed: the original error is reported as is',
        ErrorPath: '$.error.Error',
        CausePath: '$.error.Cause',
      },
    },
  };
}

/** Placeholder Lambda ARNs for local execution; the runner overrides every Task by state name. */
export function localResources(): Record<TaskName, string> {
  return Object.fromEntries(
    TASK_NAMES.map((name) => [name, `arn:aws:lambda:us-east-1:000000000000:function:dropqa-local-${name}`]),
  ) as Record<TaskName, string>;
}

import { ArnFormat, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import {
  pipelineDefinition,
  TASK_NAMES,
  TASK_TIMEOUT_SECONDS,
  type TaskName,
} from '#shared/pipeline/definition.ts';
import type { FunctionEntry } from '../function-bundles.ts';
import { grantObjects, type ObjectAccess } from '../grants.ts';
import { HouseFunction } from '../house-function.ts';
import { acknowledge } from '../nag.ts';
import {
  collectionsEnvironment,
  grantModels,
  providerEnvironment,
  storageEnvironment,
} from '../providers-env.ts';
import type { Settings } from '../settings.ts';
import type { DatabaseStack } from './database.ts';
import { ATTACHMENT_PREFIX, DERIVED_PREFIX } from './storage.ts';

interface TaskFunctionSpec {
  entry: FunctionEntry;
  description: string;
  memorySize: number;
  /** What the step does in the bucket (tests/integration/aws/function-bundles.test.ts checks each grant is used). */
  objects: ObjectAccess;
  models: boolean;
}

/** One Lambda per Task state (its timeout: see `lambdaTimeout`). */
const TASK_FUNCTIONS: Record<TaskName, TaskFunctionSpec> = {
  Register: {
    entry: 'functions/ingest/register.ts',
    description: 'Task Register',
    memorySize: 1024,
    objects: { read: true },
    models: false,
  },
  Parse: {
    entry: 'functions/parse/handler.ts',
    description: 'Task Parse',
    memorySize: 3008,
    // An e-mail's attachments are written (and an earlier version's removed) as objects of their own.
    objects: {
      read: true,
      write: [DERIVED_PREFIX, ATTACHMENT_PREFIX],
      delete: [DERIVED_PREFIX, ATTACHMENT_PREFIX],
    },
    // Section titles from the chat model, structure from the embedder (offline fallbacks warn).
    models: true,
  },
  DescribeImage: {
    entry: 'functions/images/handler.ts',
    description: 'Task DescribeImage',
    memorySize: 1536,
    // Reads the image; what it learns goes to the database.
    objects: { read: true },
    models: true,
  },
  Summarize: {
    entry: 'functions/summarize/handler.ts',
    description: 'Task Summarize',
    memorySize: 1024,
    // Works from the database alone.
    objects: {},
    models: true,
  },
  Topics: {
    entry: 'functions/topics/handler.ts',
    description: 'Task Topics',
    memorySize: 1024,
    objects: {},
    models: true,
  },
  Activate: {
    entry: 'functions/ingest/activate.ts',
    description: 'Task Activate',
    memorySize: 512,
    // A reindex whose result equals the current version's is discarded: its files go (discardVersion).
    objects: { delete: [DERIVED_PREFIX] },
    models: false,
  },
  MarkFailed: {
    entry: 'functions/ingest/mark-failed.ts',
    description: 'Task MarkFailed',
    memorySize: 512,
    // A failed version's files go (discardVersion).
    objects: { delete: [DERIVED_PREFIX] },
    models: false,
  },
};

/** The execution statuses whose events reach the execution-ended function. */
export const ENDED_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/** The ingest function's timeout: it routes a batch of ten events, each a few API calls. */
const INGEST_TIMEOUT_SECONDS = 60;

/** Lambda's own limit on a run. */
const LAMBDA_MAX_SECONDS = 900;

/**
 * A task function's timeout: 30 s above its state's TimeoutSeconds (within Lambda's 900), so the
 * state times out first and its Retry and Catch decide, never a function killed mid-write.
 */
export const lambdaTimeout = (task: TaskName): Duration =>
  Duration.seconds(Math.min(LAMBDA_MAX_SECONDS, TASK_TIMEOUT_SECONDS[task] + 30));

export interface PipelineStackProps extends StackProps {
  settings: Settings;
  /** The documents bucket, by name (see `documentsBucketName`). */
  bucketName: string;
  database: DatabaseStack;
}

/**
 * The ingestion state machine, deployed from the one definition in shared/pipeline with the task
 * functions' ARNs substituted in; the ingest function that turns the bucket's object events
 * (EventBridge rules) into executions or removals; and the dead-letter queue for events that could
 * not be delivered to it or that it failed on.
 */
export class PipelineStack extends Stack {
  readonly stateMachine: StateMachine;
  readonly taskFunctions: Record<TaskName, HouseFunction>;
  readonly ingest: HouseFunction;
  /** Marks the version of an execution that ended unsuccessfully failed (see `ENDED_STATUSES`). */
  readonly executionEnded: HouseFunction;
  readonly deadLetters: Queue;
  /** The object events on their way to the ingest function. */
  readonly ingestQueue: Queue;

  constructor(scope: Construct, id: string, props: PipelineStackProps) {
    super(scope, id, props);
    const { settings, database } = props;
    const bucket = Bucket.fromBucketName(this, 'Documents', props.bucketName);
    const logRetention = settings.logRetentionDays as RetentionDays;
    const environment = {
      ...providerEnvironment(settings),
      ...storageEnvironment(bucket.bucketName),
      ...collectionsEnvironment(settings),
    };

    const functions = {} as Record<TaskName, HouseFunction>;
    for (const task of TASK_NAMES) {
      const spec = TASK_FUNCTIONS[task];
      const fn = new HouseFunction(this, task, {
        ...spec,
        timeout: lambdaTimeout(task),
        environment,
        logRetention,
      });
      database.grantDataApi(fn);
      grantObjects(fn, bucket, spec.objects);
      if (spec.models) grantModels(fn, settings, this, task === 'DescribeImage');
      functions[task] = fn;
    }
    this.taskFunctions = functions;

    // The one definition, its Task resources as substitution variables, plus the execution limit.
    const definition = {
      ...pipelineDefinition(
        Object.fromEntries(TASK_NAMES.map((task) => [task, `\${${task}Arn}`])) as Record<TaskName, string>,
      ),
      TimeoutSeconds: settings.executionTimeoutMinutes * 60,
    };
    this.stateMachine = new StateMachine(this, 'Ingestion', {
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(JSON.stringify(definition)),
      definitionSubstitutions: Object.fromEntries(
        TASK_NAMES.map((task) => [`${task}Arn`, functions[task].functionArn]),
      ),
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'IngestionLogs', { retention: logRetention }),
        level: LogLevel.ALL,
        includeExecutionData: false,
      },
    });
    for (const task of TASK_NAMES) functions[task].grantInvoke(this.stateMachine);
    // Another service or account starts ingestions with states:StartExecution on this ARN.
    new CfnOutput(this, 'StateMachineArn', { value: this.stateMachine.stateMachineArn });

    this.deadLetters = new Queue(this, 'EventDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(
      this.deadLetters,
      'AwsSolutions-SQS3',
      'This queue is itself the dead-letter queue of the object events.',
    );
    // The object events wait here; the ingest function starts at most pipelineConcurrency
    // executions at once and sends the others back with a delay (functions/ingest/queued-events.ts).
    this.ingestQueue = new Queue(this, 'IngestQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // Six times the function's timeout, as Lambda asks of a queue it polls.
      visibilityTimeout: Duration.seconds(6 * INGEST_TIMEOUT_SECONDS),
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: 5 },
    });
    this.ingest = new HouseFunction(this, 'Ingest', {
      entry: 'functions/ingest/events.ts',
      description:
        'S3 object events -> ingestion executions (at most pipelineConcurrency at once) and removals',
      timeout: Duration.seconds(INGEST_TIMEOUT_SECONDS),
      environment: {
        ...environment,
        STATE_MACHINE_ARN: this.stateMachine.stateMachineArn,
        INGEST_QUEUE_URL: this.ingestQueue.queueUrl,
        PIPELINE_CONCURRENCY: String(settings.pipelineConcurrency),
      },
      logRetention,
      deadLetterQueue: this.deadLetters,
    });
    this.stateMachine.grantStartExecution(this.ingest);
    this.stateMachine.grant(this.ingest, 'states:ListExecutions');
    this.ingestQueue.grantSendMessages(this.ingest);
    this.ingest.addEventSource(
      new SqsEventSource(this.ingestQueue, {
        batchSize: 10,
        // The fewest pollers SQS allows: slots are counted per batch, so fewer pollers overshoot less.
        maxConcurrency: 2,
        reportBatchItemFailures: true,
      }),
    );
    database.grantDataApi(this.ingest);
    grantObjects(this.ingest, bucket, { read: true, delete: [DERIVED_PREFIX, ATTACHMENT_PREFIX] });

    const target = new SqsQueue(this.ingestQueue, {
      deadLetterQueue: this.deadLetters,
      retryAttempts: 8,
      maxEventAge: Duration.hours(6),
    });
    for (const [name, detailType] of [
      ['ObjectCreated', 'Object Created'],
      ['ObjectDeleted', 'Object Deleted'],
    ] as const) {
      new Rule(this, name, {
        description: `${detailType} in the documents bucket (derived files excluded) -> the ingest queue`,
        eventPattern: {
          source: ['aws.s3'],
          detailType: [detailType],
          detail: {
            bucket: { name: [bucket.bucketName] },
            object: { key: [{ 'anything-but': { prefix: DERIVED_PREFIX } }] },
          },
        },
        targets: [target],
      });
    }

    // An execution that times out, is stopped or fails where no Catch sees it never reaches
    // MarkFailed: Step Functions' own status events mark its version failed.
    this.executionEnded = new HouseFunction(this, 'ExecutionEnded', {
      entry: 'functions/ingest/execution-ended.ts',
      description: 'Ingestion executions FAILED, TIMED_OUT or ABORTED -> their version marked failed',
      environment,
      logRetention,
      deadLetterQueue: this.deadLetters,
    });
    database.grantDataApi(this.executionEnded);
    // MarkFailed's core removes what the failed version wrote under documents/<id>/v<n>/.
    grantObjects(this.executionEnded, bucket, { delete: [DERIVED_PREFIX] });
    this.executionEnded.addToRolePolicy(
      new PolicyStatement({
        actions: ['states:GetExecutionHistory'],
        resources: [
          this.formatArn({
            service: 'states',
            resource: 'execution',
            resourceName: `${this.stateMachine.stateMachineName}:*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    new Rule(this, 'ExecutionEndedRule', {
      description:
        'Ingestion executions that FAILED, TIMED_OUT or were ABORTED -> the execution-ended function',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...ENDED_STATUSES],
          stateMachineArn: [this.stateMachine.stateMachineArn],
        },
      },
      targets: [
        new LambdaFunction(this.executionEnded, {
          deadLetterQueue: this.deadLetters,
          retryAttempts: 8,
          maxEventAge: Duration.hours(6),
        }),
      ],
    });
  }
}

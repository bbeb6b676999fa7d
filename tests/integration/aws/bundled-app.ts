import { generateKeyPairSync, type JsonWebKey, sign } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { TASK_NAMES } from '#shared/pipeline/definition.ts';
import { S3BlobStore } from '#shared/storage/s3.ts';
import { buildApp } from '../../../infra/build-app.ts';
import { NATIVE_MODULES_CONTEXT } from '../../../infra/house-function.ts';
import { REPO_ROOT } from '../../../infra/paths.ts';
import { type AwsFront, startAwsFront, type WireRequest } from '../../fakes/aws-front.ts';
import { openDataApiTestDatabase } from '../../fakes/data-api-db.ts';
import { startFake } from '../../fakes/index.ts';
import { deployedDefinition } from '../../unit/infra/synth.ts';
import { startS3rver } from '../storage/s3rver.ts';
import { deployedMachine, type TaskHandlers } from './deployed-machine.ts';
import {
  bucketPolicies,
  type Denial,
  deniedCalls,
  describeDenial,
  type FunctionRole,
  functionRole,
} from './iam/role-simulation.ts';
import { type CfnTemplate, DEPLOYMENT, TemplateValues } from './iam/template-values.ts';
import { bedrockWireRequest, type IamCall, iamCalls } from './iam/wire-calls.ts';
import { copyPackages, type LambdaContainer, startContainer } from './lambda-container.ts';

const STACKS = ['storage', 'database', 'pipeline', 'api', 'web'] as const;
type StackName = (typeof STACKS)[number];

/** The functions the bundled app runs, by construct id, with the stack each is in. */
const FUNCTION_STACKS: Record<string, StackName> = {
  Migrate: 'database',
  Ingest: 'pipeline',
  ExecutionEnded: 'pipeline',
  Ask: 'api',
  ...Object.fromEntries(TASK_NAMES.map((task) => [task, 'pipeline' as const])),
};

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const JWKS = JSON.stringify({
  keys: [
    { ...(keys.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'key-1', alg: 'RS256', use: 'sig' },
  ],
});

/** A Function URL request (payload 2.0) as CloudFront's origin request reaches the ask function. */
export interface UrlRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** JSON (an object), or raw bytes with their content type (sent base64-encoded). */
  body?: unknown;
  contentType?: string;
}

export type StreamedResponse = Awaited<ReturnType<LambdaContainer['invokeStreaming']>>;

/**
 * The deployed app on this machine: one bundling synthesis (settings `overrides`), each function's
 * package taken out of cdk.out and run in a Node process of its own (`container`), its environment
 * the template's with every intrinsic resolved as one deployment (`TemplateValues`), its AWS calls
 * signed with an access key named after it and sent to the `AwsFront`, which records them and hands
 * them to s3rver, the Data API fake, an in-process Step Functions (StartExecution runs the deployed
 * definition with the task functions' containers) and Textract; Bedrock goes to its own fake.
 * `checkCalls` evaluates what the functions called since the last check against their roles.
 */
export async function startBundledApp(overrides: Record<string, unknown> = {}) {
  const root = mkdtempSync(join(tmpdir(), 'dropqa-bundled-'));
  const outdir = join(root, 'cdk.out');
  // This machine's builds of jieba and sharp stand in for the linux-arm64 ones Lambda gets.
  const native = copyPackages(REPO_ROOT, ['@node-rs/jieba', 'sharp'], join(root, 'native'));
  const built = buildApp(
    { outdir, context: { [NATIVE_MODULES_CONTEXT]: native, 'aws:cdk:enable-asset-metadata': true } },
    overrides,
    { checks: false },
  );
  built.app.synth();
  const templates = Object.fromEntries(STACKS.map((s) => [s, Template.fromStack(built[s])])) as Record<
    StackName,
    Template
  >;
  const values = new TemplateValues(
    Object.fromEntries(STACKS.map((s) => [s, templates[s].toJSON() as CfnTemplate])),
  );
  const apiVariables = functionResource(templates.api, 'Ask').Properties.Environment.Variables;
  const env = values.resolve(apiVariables, 'api') as Record<string, string>;
  const bucket = env.DROPQA_BUCKET ?? '';
  const stateMachineArn = env.STATE_MACHINE_ARN ?? '';
  const pool = env.USER_POOL_ID ?? '';
  const client = env.USER_POOL_CLIENT_ID ?? '';

  const database = await openDataApiTestDatabase({ migrate: false });
  const bedrock = await startFake('bedrock');
  const s3 = await startS3rver([bucket], Object.keys(FUNCTION_STACKS));
  const store = new S3BlobStore({
    bucket,
    region: DEPLOYMENT.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

  const containers = new Map<string, Promise<LambdaContainer>>();
  const handlers = Object.fromEntries(
    TASK_NAMES.map((task) => [task, async (input: unknown) => (await container(task)).invoke(input)]),
  ) as TaskHandlers;
  const machine = deployedMachine(deployedDefinition(templates.pipeline), handlers);
  const executions: Promise<{ output?: unknown; error?: Error }>[] = [];
  /** Execution names stay taken after the execution ends, as in Step Functions. */
  const executionNames = new Set<string>();
  const front: AwsFront = await startAwsFront({
    s3: s3.endpoint,
    'rds-data': database.api.url,
    states: (request) => stepFunctions(request),
    textract: () => ({
      status: 200,
      body: { Blocks: [{ BlockType: 'LINE', Text: 'Revenue grew by twelve percent', Confidence: 98.5 }] },
    }),
  });

  /** History events of executions, by ARN, as a test sets them (`history`). */
  const histories = new Map<string, unknown[]>();

  /**
   * Step Functions: StartExecution runs the deployed definition with the task functions' containers
   * (none is left running between calls, so ListExecutions lists none); GetExecutionHistory answers
   * what a test set.
   */
  function stepFunctions(request: WireRequest) {
    const operation = request.headers['x-amz-target']?.replace('AWSStepFunctions.', '');
    const body = JSON.parse(request.body);
    if (operation === 'ListExecutions' && body.stateMachineArn === stateMachineArn)
      return { status: 200, body: { executions: [] } };
    if (operation === 'GetExecutionHistory')
      return { status: 200, body: { events: histories.get(body.executionArn) ?? [] } };
    const { stateMachineArn: arn, name = `run-${executionNames.size + 1}`, input } = body;
    if (operation !== 'StartExecution' || arn !== stateMachineArn)
      return { status: 400, body: { __type: 'StateMachineDoesNotExist', message: `${operation} on ${arn}` } };
    if (executionNames.has(name))
      return { status: 400, body: { __type: 'ExecutionAlreadyExists', message: `${name} exists` } };
    const run = machine.run(JSON.parse(input)).then(
      (output) => ({ output }),
      (error: Error) => ({ error }),
    );
    executionNames.add(name);
    executions.push(run);
    return {
      status: 200,
      body: {
        executionArn: `${arn.replace(':stateMachine:', ':execution:')}:${name}`,
        startDate: Date.now() / 1000,
      },
    };
  }

  /** The warm container of a function: its package copied out of cdk.out, as Lambda unzips it. */
  function container(id: string): Promise<LambdaContainer> {
    let started = containers.get(id);
    if (started) return started;
    const stack = FUNCTION_STACKS[id];
    if (!stack) throw new Error(`no function ${id}`);
    const fn = functionResource(templates[stack], id);
    const dir = join(root, 'task', id);
    cpSync(join(outdir, fn.Metadata['aws:asset:path']), dir, { recursive: true });
    const variables = values.resolve(fn.Properties.Environment?.Variables ?? {}, stack) as Record<
      string,
      string
    >;
    started = startContainer(dir, fn.Properties.Handler, {
      ...variables,
      PATH: process.env.PATH ?? '',
      AWS_REGION: DEPLOYMENT.region,
      // The function's role, as far as the front can tell: it signs with a key named after it.
      AWS_ACCESS_KEY_ID: id,
      AWS_SECRET_ACCESS_KEY: id,
      // Every SDK client without an endpoint of its own goes to the front; the storage and the
      // providers are pointed there by their settings.
      AWS_ENDPOINT_URL: front.url,
      DROPQA_STORAGE__ENDPOINT: front.url,
      DROPQA_STORAGE__FORCE_PATH_STYLE: 'true',
      DROPQA_PROVIDERS__CHAT__BASE_URL: bedrock.url,
      DROPQA_PROVIDERS__EMBEDDER__BASE_URL: bedrock.url,
      ...(variables.DROPQA_SEARCH__RERANK__KIND ? { DROPQA_SEARCH__RERANK__BASE_URL: bedrock.url } : {}),
      DROPQA_DATA_DIR: join(root, 'tmp', id),
      TEST_JWKS: JWKS,
    });
    containers.set(id, started);
    return started;
  }

  /** A Cognito ID token of the pool, signed with the key the JWKS publishes. */
  function idToken(): string {
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const claims = {
      sub: 'user-1',
      email: 'user@example.com',
      // Deny by default: the deployer's user is in admin (docs/aws.md), so it reads and writes everything.
      'cognito:groups': ['admin'],
      iss: `https://cognito-idp.${DEPLOYMENT.region}.amazonaws.com/${pool}`,
      aud: client,
      token_use: 'id',
      exp: Math.floor(Date.now() / 1000) + 600,
    };
    const unsigned = `${part({ alg: 'RS256', kid: 'key-1' })}.${part(claims)}`;
    return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), keys.privateKey).toString('base64url')}`;
  }

  function urlEvent({ method, path, query = {}, body, contentType }: UrlRequest) {
    const raw = body instanceof Uint8Array;
    return {
      version: '2.0',
      routeKey: '$default',
      rawPath: path,
      rawQueryString: new URLSearchParams(query).toString(),
      queryStringParameters: Object.keys(query).length ? query : undefined,
      headers: {
        host: 'abc.lambda-url.us-east-1.on.aws',
        'content-type': contentType ?? 'application/json',
        'x-dropqa-token': idToken(),
      },
      requestContext: {
        accountId: DEPLOYMENT.account,
        apiId: 'abc',
        domainName: 'abc.lambda-url.us-east-1.on.aws',
        http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
        requestId: 'request-1',
        routeKey: '$default',
        stage: '$default',
        time: new Date().toISOString(),
        timeEpoch: Date.now(),
      },
      body:
        body === undefined ? undefined : raw ? Buffer.from(body).toString('base64') : JSON.stringify(body),
      isBase64Encoded: raw,
    };
  }

  const roles = new Map<string, FunctionRole>();
  const roleOf = (caller: string) => {
    const stack = FUNCTION_STACKS[caller];
    if (!stack) return undefined;
    if (!roles.has(caller)) roles.set(caller, functionRole(values, stack, caller));
    return roles.get(caller);
  };
  const resourcePolicies = bucketPolicies(values);
  /** Every call checked so far, for the grants report. */
  const checked: IamCall[] = [];

  return {
    templates,
    values,
    database,
    bedrock,
    store,
    bucket,
    container,
    /** What a function's container wrote to stdout and stderr (its logs). */
    logs: async (id: string) => (await container(id)).logs(),
    /** The deployed state machine's definition run with the task functions' containers. */
    machine,
    /** Asks the ask function, in RESPONSE_STREAM mode. */
    ask: async (request: UrlRequest): Promise<StreamedResponse> =>
      (await container('Ask')).invokeStreaming(urlEvent(request)),
    stateMachineArn,
    /** Sets the history GetExecutionHistory answers for an execution. */
    history: (executionArn: string, events: unknown[]) => histories.set(executionArn, events),
    /** Waits for the executions StartExecution started so far; their outputs (or errors), in order. */
    async executions() {
      return Promise.all(executions.splice(0));
    },
    /**
     * The calls the functions made since the last check, evaluated against their roles; the ones
     * not allowed (see `describeDenial`).
     */
    async checkCalls(): Promise<Denial[]> {
      const requests = [...front.drain(), ...bedrock.requests.splice(0).map(bedrockWireRequest)];
      const calls = requests.flatMap(iamCalls);
      checked.push(...calls);
      return deniedCalls(calls, roleOf, resourcePolicies);
    },
    checked,
    roleOf,
    functionIds: Object.keys(FUNCTION_STACKS),
    describeDenial,
    async stop() {
      for (const started of containers.values()) await (await started.catch(() => undefined))?.stop();
      await front.close();
      await bedrock.stop();
      await s3.close();
      await database.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export type BundledApp = Awaited<ReturnType<typeof startBundledApp>>;

// biome-ignore lint/suspicious/noExplicitAny: a template resource, read by its documented properties
function functionResource(template: Template, id: string): any {
  const [, fn] =
    Object.entries(template.findResources('AWS::Lambda::Function')).find(([name]) =>
      new RegExp(`^${id}[0-9A-F]{8}$`).test(name),
    ) ?? [];
  if (!fn) throw new Error(`no function ${id}`);
  return fn;
}

import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';
import { type FunctionEntry, functionBundle } from './function-bundles.ts';
import { acknowledge } from './nag.ts';
import { ensureNativeArm64 } from './native-arm64.ts';

export { REPO_ROOT } from './paths.ts';

export interface HouseFunctionProps {
  /** The handler module, relative to the repository root (`functions/parse/handler.ts`). */
  entry: FunctionEntry;
  description: string;
  /** Default 30 s. */
  timeout?: Duration;
  /** Default 1024 MB (CPU grows with memory; parsing and embedding are CPU-bound). */
  memorySize?: number;
  environment?: Record<string, string>;
  logRetention: RetentionDays;
  /** Copy the database migrations beside the bundle (the migration function). */
  withMigrations?: boolean;
  /** Where failed asynchronous invocations go. */
  deadLetterQueue?: IQueue;
  /** Concurrent executions reserved for (and the most allowed to) the function. */
  reservedConcurrentExecutions?: number;
}

/** The context key naming a node_modules folder of native modules to package instead of linux-arm64's. */
export const NATIVE_MODULES_CONTEXT = 'nativeModules';

/** Stands in for the code when a test synthesizes without bundling. */
const UNBUNDLED = Code.fromInline('export const handler = async () => { throw new Error("not bundled"); };');

/**
 * Every DropQA function: Node 22 on arm64, X-Ray tracing, its own log group with a retention,
 * Powertools named after the function. Its code is its folder from the one esbuild build of all
 * functions (see function-bundles.ts: ESM, split, minified, source maps); the native modules (jieba,
 * sharp) are copied beside the functions that use them as their linux-arm64 builds (see
 * native-arm64.ts).
 */
export class HouseFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: HouseFunctionProps) {
    const bundled = Stack.of(scope).bundlingRequired;
    // Context `nativeModules`: a node_modules folder to package instead (the tests run the bundles
    // on their own machine, with its builds of jieba and sharp).
    const native = scope.node.tryGetContext(NATIVE_MODULES_CONTEXT) as string | undefined;
    const bundle = bundled
      ? functionBundle(props.entry, {
          withMigrations: props.withMigrations,
          nativeModules: native ?? ensureNativeArm64(),
        })
      : undefined;
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      code: bundle ? Code.fromAsset(bundle.dir) : UNBUNDLED,
      handler: bundle?.handler ?? 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: Tracing.ACTIVE,
      logGroup,
      deadLetterQueue: props.deadLetterQueue,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: `dropqa-${id.toLowerCase()}`,
        POWERTOOLS_METRICS_NAMESPACE: 'DropQA',
        DROPQA_DATA_DIR: '/tmp/dropqa',
        ...props.environment,
      },
    });
    // The Function construct keeps no metadata of its own: acknowledge on its resources.
    acknowledge(
      this.node.defaultChild as IConstruct,
      'AwsSolutions-L1',
      'Node 22 is the runtime DropQA is built and tested for (package engines, CI).',
    );
  }
}

import { resolve } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct, IConstruct } from 'constructs';
import { ensureJiebaArm64 } from './jieba-arm64.ts';
import { acknowledge } from './nag.ts';
import { REPO_ROOT } from './paths.ts';

export { REPO_ROOT } from './paths.ts';

export interface HouseFunctionProps {
  /** The handler module, relative to the repository root (`functions/parse/handler.ts`). */
  entry: string;
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
}

/**
 * Every DropQA function: Node 22 on arm64, one minified ESM bundle with source maps (the AWS SDK v3
 * comes with the runtime), X-Ray tracing, its own log group with a retention, Powertools named
 * after the function. The jieba segmenter is a native module: its linux-arm64 build is copied
 * beside the bundle instead of bundled (see jieba-arm64.ts).
 */
export class HouseFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: HouseFunctionProps) {
    const bundled = Stack.of(scope).bundlingRequired;
    const jieba = bundled ? ensureJiebaArm64() : undefined;
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      entry: resolve(REPO_ROOT, props.entry),
      projectRoot: REPO_ROOT,
      depsLockFilePath: resolve(REPO_ROOT, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(30),
      tracing: Tracing.ACTIVE,
      logGroup,
      deadLetterQueue: props.deadLetterQueue,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: `dropqa-${id.toLowerCase()}`,
        POWERTOOLS_METRICS_NAMESPACE: 'DropQA',
        DROPQA_DATA_DIR: '/tmp/dropqa',
        ...props.environment,
      },
      bundling: {
        // Without bundling (tests), the asset would be a fingerprint of the whole repository.
        assetHash: bundled ? undefined : `unbundled-${id}`,
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        mainFields: ['module', 'main'],
        // CommonJS dependencies inside an ESM bundle still call require().
        banner: "import { createRequire as __cr } from 'node:module';const require = __cr(import.meta.url);",
        externalModules: ['@aws-sdk/*', '@node-rs/jieba'],
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => [
            `mkdir -p "${outputDir}/node_modules" && cp -r "${jieba}/node_modules/@node-rs" "${outputDir}/node_modules/"`,
            ...(props.withMigrations
              ? [`cp -r "${inputDir}/shared/db/migrations" "${outputDir}/migrations"`]
              : []),
          ],
        },
      },
    });
    // The Function construct keeps no metadata of its own: acknowledge on its resources.
    acknowledge(
      this.node.defaultChild as IConstruct,
      'AwsSolutions-L1',
      'Node 22 is the runtime DropQA is built and tested for (package engines, CI).',
    );
    if (this.role) {
      acknowledge(
        this.role,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'The AWS managed basic execution role only lets the function write its own logs.',
      );
    }
  }
}

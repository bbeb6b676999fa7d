import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { type localResources, pipelineDefinition, TASK_NAMES } from '#shared/pipeline/definition.ts';
import { deployedDefinition, type Synthesized, synthesizeApp } from './synth.ts';

let s: Synthesized;
beforeAll(() => {
  s = synthesizeApp();
});

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

describe('cdk app', () => {
  it('synthesizes with no unacknowledged cdk-nag AwsSolutions finding', () => {
    // synthesizeApp throws on any unacknowledged error; each acknowledgement carries a reason.
    const ids = s.built.app.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules'))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    expect(ids.length).toBeGreaterThan(0);
    for (const [id, reason] of ids) {
      if (!id.startsWith('AwsSolutions::')) continue;
      expect(reason.length, id).toBeGreaterThan(20);
    }
  });

  it('grants no action on every resource and no wildcard action anywhere', () => {
    for (const template of [s.storage, s.database, s.pipeline, s.api, s.web]) {
      const policies = {
        ...template.findResources('AWS::IAM::Policy'),
        ...template.findResources('AWS::IAM::Role'),
      };
      for (const [name, policy] of Object.entries(policies)) {
        const documents = [
          policy.Properties?.PolicyDocument,
          ...((policy.Properties?.Policies as { PolicyDocument: unknown }[] | undefined) ?? []).map(
            (p) => p.PolicyDocument,
          ),
        ].filter(Boolean) as { Statement: Statement[] }[];
        for (const statement of documents.flatMap((d) => d.Statement)) {
          const actions = list(statement.Action);
          expect(actions, name).not.toContain('*');
          if (list(statement.Resource).includes('*')) {
            expect(
              actions.some((a) => a.endsWith(':*')),
              `${name} ${actions}`,
            ).toBe(false);
          }
        }
      }
    }
  });
});

describe('storage stack', () => {
  it('keeps the documents bucket private, encrypted, versioned and announcing to EventBridge', () => {
    s.storage.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: Match.anyValue(),
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: Match.anyValue(),
    });
    s.storage.hasResourceProperties('Custom::S3BucketNotifications', {
      NotificationConfiguration: { EventBridgeConfiguration: {} },
    });
  });

  it('refuses requests without TLS on every bucket', () => {
    const buckets = Object.keys(s.storage.findResources('AWS::S3::Bucket'));
    const policies = Object.values(s.storage.findResources('AWS::S3::BucketPolicy'));
    expect(policies).toHaveLength(buckets.length);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });
});

describe('database stack', () => {
  it('runs Aurora PostgreSQL Serverless v2 that can pause, with the Data API, encrypted, in isolated subnets', () => {
    s.database.hasResourceProperties('AWS::RDS::DBCluster', {
      Engine: 'aurora-postgresql',
      EngineVersion: Match.stringLikeRegexp('^16\\.'),
      EnableHttpEndpoint: true,
      StorageEncrypted: true,
      ServerlessV2ScalingConfiguration: { MinCapacity: 0, MaxCapacity: 4, SecondsUntilAutoPause: 600 },
      MasterUserPassword: Match.anyValue(),
    });
    s.database.hasResourceProperties('AWS::RDS::DBInstance', {
      DBInstanceClass: 'db.serverless',
      PubliclyAccessible: false,
    });
    expect(Object.keys(s.database.findResources('AWS::EC2::NatGateway'))).toEqual([]);
    expect(Object.keys(s.database.findResources('AWS::EC2::InternetGateway'))).toEqual([]);
    s.database.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ SecretStringTemplate: '{"username":"dropqa"}' }),
    });
  });

  it('applies the migrations through a custom resource on deploy', () => {
    s.database.resourceCountIs('AWS::CloudFormation::CustomResource', 1);
    s.database.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('migrations'),
      Environment: {
        Variables: Match.objectLike({
          DROPQA_DATABASE__DATA_API__DATABASE: 'dropqa',
          DROPQA_DATABASE__DATA_API__RESOURCE_ARN: Match.anyValue(),
          DROPQA_DATABASE__DATA_API__SECRET_ARN: Match.anyValue(),
        }),
      },
    });
  });
});

describe('pipeline stack', () => {
  it('deploys the one definition of shared/pipeline with the task functions substituted in', () => {
    const deployed = deployedDefinition(s.pipeline);
    const placeholders = Object.fromEntries(TASK_NAMES.map((t) => [t, `\${${t}Arn}`]));
    expect(deployed).toEqual({
      ...pipelineDefinition(placeholders as ReturnType<typeof localResources>),
      TimeoutSeconds: 3600,
    });
    const [machine] = Object.values(s.pipeline.findResources('AWS::StepFunctions::StateMachine'));
    expect(Object.keys(machine?.Properties.DefinitionSubstitutions).sort()).toEqual(
      TASK_NAMES.map((t) => `${t}Arn`).sort(),
    );
  });

  it('retries throttling and Lambda service errors with jitter, catches into MarkFailed, loops the images', () => {
    const states = deployedDefinition(s.pipeline).States as Record<string, Record<string, unknown>>;
    for (const name of ['Register', 'Parse', 'DescribeImage', 'Summarize', 'Topics', 'Activate']) {
      const state = states[name];
      expect(state?.Retry).toContainEqual(
        expect.objectContaining({
          ErrorEquals: expect.arrayContaining(['ThrottlingError', 'Lambda.TooManyRequestsException']),
          JitterStrategy: 'FULL',
        }),
      );
      expect(state?.Catch).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'MarkFailed' },
      ]);
    }
    expect(states.Images).toMatchObject({ Type: 'Choice', Default: 'Summarize' });
  });

  it('routes created and deleted objects (derived files excluded) to the ingest function, with a dead-letter queue', () => {
    for (const detailType of ['Object Created', 'Object Deleted']) {
      s.pipeline.hasResourceProperties('AWS::Events::Rule', {
        EventPattern: {
          source: ['aws.s3'],
          'detail-type': [detailType],
          detail: Match.objectLike({ object: { key: [{ 'anything-but': { prefix: 'documents/' } }] } }),
        },
        Targets: [
          Match.objectLike({
            DeadLetterConfig: { Arn: Match.anyValue() },
            RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21600 },
          }),
        ],
      });
    }
    s.pipeline.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    s.pipeline.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('object events'),
      DeadLetterConfig: { TargetArn: Match.anyValue() },
    });
  });

  it('builds every function on Node 22, arm64, traced, with its own log retention', () => {
    const functions = Object.values(s.pipeline.findResources('AWS::Lambda::Function'));
    // The task functions, the ingest function and the execution-ended function.
    expect(functions.length).toBe(TASK_NAMES.length + 2);
    for (const fn of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: expect.anything() },
      });
      expect(fn.Properties.VpcConfig).toBeUndefined();
    }
  });
});

describe('api stack', () => {
  it('serves the ask function through a streaming Function URL with IAM auth, outside any VPC', () => {
    s.api.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM', InvokeMode: 'RESPONSE_STREAM' });
    const [ask] = Object.values(s.api.findResources('AWS::Lambda::Function'));
    expect(ask?.Properties.VpcConfig).toBeUndefined();
    expect(ask?.Properties.Environment.Variables).toMatchObject({
      USER_POOL_ID: expect.anything(),
      STATE_MACHINE_ARN: expect.anything(),
      DROPQA_STORAGE__KIND: 's3',
      DROPQA_LIFECYCLE__PRESIGN_EXPIRY_SECONDS: '900',
      DROPQA_DATABASE__DATA_API__RESOURCE_ARN: expect.anything(),
    });
  });

  it('signs users in through an invitation-only Cognito user pool', () => {
    s.api.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    });
  });
});

describe('web stack', () => {
  it('serves the client from a private bucket and /api/* from the Function URL, both through origin access control', () => {
    s.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          ResponseHeadersPolicyId: Match.anyValue(),
          FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })],
        }),
        CacheBehaviors: [
          Match.objectLike({ PathPattern: '/api/*', ResponseHeadersPolicyId: Match.anyValue() }),
        ],
        Origins: [
          Match.objectLike({ S3OriginConfig: Match.anyValue(), OriginAccessControlId: Match.anyValue() }),
          Match.objectLike({ CustomOriginConfig: Match.anyValue(), OriginAccessControlId: Match.anyValue() }),
        ],
      }),
    });
    s.web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 'lambda' }),
    });
    s.web.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      Principal: 'cloudfront.amazonaws.com',
    });
  });

  it('sends security headers with every answer', () => {
    s.web.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31536000 }),
          FrameOptions: Match.objectLike({ FrameOption: 'DENY' }),
          ContentSecurityPolicy: Match.anyValue(),
        }),
      }),
    });
  });

  it("answers client routes with index.html on the default behavior only, so /api/* errors stay the API's", () => {
    const [fn] = Object.values(s.web.findResources('AWS::CloudFront::Function'));
    type Rewrite = (event: { request: { uri: string } }) => { uri: string };
    const handler = new Function(`${fn?.Properties.FunctionCode}; return handler;`)() as Rewrite;
    const served = (uri: string) => handler({ request: { uri } }).uri;
    expect(served('/documents/123')).toBe('/index.html');
    expect(served('/ask')).toBe('/index.html');
    expect(served('/assets/index-4f3a.js')).toBe('/assets/index-4f3a.js');
    expect(served('/config.json')).toBe('/config.json');
    const [distribution] = Object.values(s.web.findResources('AWS::CloudFront::Distribution'));
    const config = distribution?.Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: expect.anything() },
    ]);
    expect(config.CacheBehaviors[0].FunctionAssociations).toBeUndefined();
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('deploys /config.json naming the Cognito user pool and app client the ask function checks tokens against', () => {
    const [deployment] = Object.values(s.web.findResources('Custom::CDKBucketDeployment'));
    const props = deployment?.Properties as {
      SourceObjectKeys: string[];
      SourceMarkers: Record<string, unknown>[];
    };
    const found = props.SourceObjectKeys.map((key, i) => ({
      file: join(s.built.app.outdir, `asset.${key.replace(/\.zip$/, '')}`, 'config.json'),
      markers: props.SourceMarkers[i] ?? {},
    })).find(({ file }) => existsSync(file));
    expect(found).toBeDefined();
    const raw = JSON.parse(readFileSync(found?.file ?? '', 'utf8')) as { auth: Record<string, string> };
    // Deploy-time values are markers the deployment function replaces with the referenced values.
    const auth = Object.fromEntries(
      Object.entries(raw.auth).map(([k, v]) => [k, (found?.markers[v] ?? v) as unknown]),
    );
    const exported = (ref: unknown) => {
      const name = (ref as { 'Fn::ImportValue': string })['Fn::ImportValue'];
      const output = Object.values(
        s.api.toJSON().Outputs as Record<string, { Export?: { Name: string }; Value: { Ref: string } }>,
      ).find((o) => o.Export?.Name === name);
      return s.api.toJSON().Resources[output?.Value.Ref ?? '']?.Type;
    };
    expect(auth.type).toBe('cognito');
    expect(auth.region).toEqual({ Ref: 'AWS::Region' });
    expect(exported(auth.userPoolId)).toBe('AWS::Cognito::UserPool');
    expect(exported(auth.clientId)).toBe('AWS::Cognito::UserPoolClient');
  });

  it('lets the web client sign in with USER_PASSWORD_AUTH and no client secret', () => {
    s.api.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH']),
      GenerateSecret: false,
    });
  });
});

/** The resources a function's role may call `action` on (its default policy's statements). */
function resourcesOf(template: typeof s.api, functionId: string, action: string): unknown[] {
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([name]) => name.startsWith(`${functionId}ServiceRoleDefaultPolicy`))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((statement) => list(statement.Action).includes(action))
    .flatMap((statement) => list(statement.Resource));
}
const text = (value: unknown) => JSON.stringify(value);

describe('what the first real deploy needs', () => {
  it('lets browsers PUT presigned uploads into the documents bucket from the site (CORS)', () => {
    s.storage.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: Match.anyValue(),
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedMethods: ['PUT'], AllowedOrigins: ['*'] })],
      },
    });
  });

  it('calls the default chat model through its global inference profile, granted with the foundation model it routes to', () => {
    const granted = resourcesOf(s.api, 'Ask', 'bedrock:InvokeModel').map(text);
    const model = 'anthropic.claude-haiku-4-5-20251001-v1:0';
    expect(granted.some((r) => r.includes(`:inference-profile/global.${model}`))).toBe(true);
    expect(granted).toContainEqual(expect.stringMatching(new RegExp(`bedrock:::foundation-model/${model}`)));
    // No ARN of a profile id as a foundation model (it does not exist).
    expect(granted.some((r) => r.includes('foundation-model/global.'))).toBe(false);
    expect(granted.some((r) => r.includes('foundation-model/amazon.titan-embed-text-v2:0'))).toBe(true);
  });

  it('lets Parse write and remove e-mail attachments, whose S3 events ingest them as documents', () => {
    for (const action of ['s3:PutObject', 's3:DeleteObject']) {
      const granted = resourcesOf(s.pipeline, 'Parse', action).map(text);
      expect(granted.some((r) => r.includes('/attachments/*'))).toBe(true);
      expect(granted.some((r) => r.includes('/documents/*'))).toBe(true);
    }
  });

  it('lets Parse call the chat model and the embedder it titles and structures sections with', () => {
    const granted = resourcesOf(s.pipeline, 'Parse', 'bedrock:InvokeModel').map(text);
    expect(granted.some((r) => r.includes('inference-profile/global.anthropic'))).toBe(true);
    expect(granted.some((r) => r.includes('amazon.titan-embed-text-v2:0'))).toBe(true);
  });

  it('reserves no concurrency by default (a new account has none to spare), throttles each user, and never compresses (buffers) /api/* answers', () => {
    // Lambda keeps 100 unreserved: an account at a quota of 10 fails stack creation on any reservation.
    for (const template of [s.storage, s.database, s.pipeline, s.api, s.web]) {
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function')))
        expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    // Each user by a token bucket: 20 questions at once, then 2 a minute.
    s.api.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          DROPQA_LIMITS__ASK_RATE__PER_MINUTE: '2',
          DROPQA_LIMITS__ASK_RATE__BURST: '20',
        }),
      },
    });
    s.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CacheBehaviors: [Match.objectLike({ PathPattern: '/api/*', Compress: false })],
      }),
    });
  });

  it("keeps the API's own Content-Security-Policy (the image sandbox) under CloudFront's headers", () => {
    s.web.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: Match.objectLike({ Override: false }),
        }),
      }),
    });
  });

  it('gives each task function a timeout a little above its state timeout, within Lambda 900 s', () => {
    const states = deployedDefinition(s.pipeline).States as Record<string, { TimeoutSeconds?: number }>;
    const functions = s.pipeline.findResources('AWS::Lambda::Function');
    for (const task of ['Register', 'Parse', 'Summarize', 'Topics', 'Activate', 'MarkFailed']) {
      const [, fn] = Object.entries(functions).find(([name]) => name.startsWith(task)) ?? [];
      const state = states[task]?.TimeoutSeconds ?? 0;
      expect(fn?.Properties.Timeout, task).toBeGreaterThan(state);
      expect(fn?.Properties.Timeout, task).toBeLessThanOrEqual(900);
    }
  });

  it('publishes the state machine ARN and uses the Cognito Essentials plan', () => {
    s.pipeline.hasOutput('StateMachineArn', { Value: Match.anyValue() });
    s.api.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
    });
  });
});

describe('executions that end without reaching MarkFailed', () => {
  it("routes the state machine's FAILED, TIMED_OUT and ABORTED status events to the execution-ended function", () => {
    const machine = Object.keys(s.pipeline.findResources('AWS::StepFunctions::StateMachine'))[0];
    const rules = Object.values(s.pipeline.findResources('AWS::Events::Rule')).filter(
      (rule) => rule.Properties.EventPattern.source?.[0] === 'aws.states',
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: { status: ['FAILED', 'TIMED_OUT', 'ABORTED'], stateMachineArn: [{ Ref: machine }] },
    });
    const target = rules[0]?.Properties.Targets[0];
    expect(text(target.Arn)).toMatch(/"ExecutionEnded[0-9A-F]{8}"/);
    expect(target.DeadLetterConfig).toBeDefined();
  });

  it("lets the execution-ended function read its executions' history and remove a failed version's files", () => {
    const history = resourcesOf(s.pipeline, 'ExecutionEnded', 'states:GetExecutionHistory').map(text);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatch(/:execution:.*"Ingestion[0-9A-F]{8}","Name".*:\*/);
    const deletable = resourcesOf(s.pipeline, 'ExecutionEnded', 's3:DeleteObject').map(text);
    expect(deletable.some((r) => r.includes('/documents/*'))).toBe(true);
  });
});

import { createHash } from 'node:crypto';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  FeaturePlan,
  Mfa,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { type FunctionUrl, FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { ADMIN_GROUP } from '#shared/access/grants.ts';
import { grantObjects } from '../grants.ts';
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
import { ANY_KEY, COLLECTIONS_PREFIX, UPLOAD_PREFIX } from './storage.ts';

export interface ApiStackProps extends StackProps {
  settings: Settings;
  /** The documents bucket, by name (see `documentsBucketName`). */
  bucketName: string;
  database: DatabaseStack;
  stateMachine: IStateMachine;
}

/**
 * The ask function (the Hono app: REST API, SSE answers, images, presigned uploads) behind a Function
 * URL in RESPONSE_STREAM mode with AWS_IAM auth, outside any VPC; only CloudFront, signing with
 * origin access control, may invoke it. Users sign in with Cognito (no self sign-up: an administrator
 * invites them); the function checks their ID token, and their Cognito groups, through the
 * `accessGrants` setting, say which collections they read and write (the groups are created here).
 */
export class ApiStack extends Stack {
  readonly ask: HouseFunction;
  readonly url: FunctionUrl;
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { settings, database } = props;
    const bucket = Bucket.fromBucketName(this, 'Documents', props.bucketName);

    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      passwordPolicy: {
        minLength: 12,
        requireDigits: true,
        requireLowercase: true,
        requireUppercase: true,
        requireSymbols: true,
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Essentials: no charge for the first 10,000 monthly active users; Plus (threat protection)
      // costs per active user with no free tier, and nothing here uses it.
      featurePlan: FeaturePlan.ESSENTIALS,
      removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledge(
      this.userPool,
      'AwsSolutions-COG2',
      'MFA is offered (TOTP) but left to each organisation to require; invitation-only sign-up limits exposure.',
    );
    acknowledge(
      this.userPool,
      'AwsSolutions-COG3',
      'Threat protection needs the Plus plan, billed per monthly active user with no free tier; invitation-only sign-up and a strong password policy are used instead.',
    );
    acknowledge(
      this.userPool,
      'AwsSolutions-COG8',
      'The Essentials plan is free for the first 10,000 monthly active users; Plus (threat protection) is billed per active user and its features are not used (see docs/aws.md for the cost).',
    );
    this.userPoolClient = this.userPool.addClient('Web', {
      // The web client signs in with InitiateAuth USER_PASSWORD_AUTH over HTTPS (no SDK in the client).
      authFlows: { userSrp: true, userPassword: true },
      generateSecret: false,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      preventUserExistenceErrors: true,
    });

    for (const group of new Set([ADMIN_GROUP, ...Object.keys(settings.accessGrants)])) {
      const grant = settings.accessGrants[group];
      new CfnUserPoolGroup(this, `Group${group.replace(/[^A-Za-z0-9]/g, '')}${hashOf(group)}`, {
        userPoolId: this.userPool.userPoolId,
        groupName: group,
        description:
          group === ADMIN_GROUP
            ? 'DropQA: reads and writes every collection'
            : `DropQA: reads ${grant?.read.join(', ') || 'nothing'}; writes ${grant?.write.join(', ') || 'nothing'}`.slice(
                0,
                2048,
              ),
      });
    }

    this.ask = new HouseFunction(this, 'Ask', {
      entry: 'functions/ask/handler.ts',
      description: 'DropQA HTTP API and streaming answers (Function URL, RESPONSE_STREAM)',
      timeout: Duration.minutes(5),
      memorySize: 1769,
      // A ceiling on concurrent answers (and so on Bedrock spend) when asked for; none by default.
      reservedConcurrentExecutions: settings.askConcurrency || undefined,
      logRetention: settings.logRetentionDays as RetentionDays,
      environment: {
        ...providerEnvironment(settings),
        ...storageEnvironment(bucket.bucketName),
        ...collectionsEnvironment(settings),
        ACCESS_GRANTS: JSON.stringify(settings.accessGrants),
        DROPQA_LIFECYCLE__PRESIGN_EXPIRY_SECONDS: String(settings.presignExpirySeconds),
        DROPQA_LIMITS__ASK_RATE__PER_MINUTE: String(settings.askPerMinute),
        DROPQA_LIMITS__ASK_RATE__BURST: String(settings.askBurst),
        STATE_MACHINE_ARN: props.stateMachine.stateMachineArn,
        USER_POOL_ID: this.userPool.userPoolId,
        USER_POOL_CLIENT_ID: this.userPoolClient.userPoolClientId,
      },
    });
    database.grantDataApi(this.ask);
    grantObjects(this.ask, bucket, {
      read: true,
      // Uploads into a chosen collection go under collections/<name>/; the app checks the user may.
      write: [UPLOAD_PREFIX, COLLECTIONS_PREFIX],
      // Deleting a document removes its original, wherever it was ingested from.
      delete: [ANY_KEY],
    });
    props.stateMachine.grantStartExecution(this.ask);
    grantModels(this.ask, settings, this);

    this.url = this.ask.addFunctionUrl({
      authType: FunctionUrlAuthType.AWS_IAM,
      invokeMode: InvokeMode.RESPONSE_STREAM,
    });

    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
  }
}

/** A short stable suffix that keeps construct ids of group names differing only in punctuation apart. */
function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

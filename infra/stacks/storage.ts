import { Aws, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { acknowledge } from '../nag.ts';
import type { Settings } from '../settings.ts';

/** Prefix of what the pipeline writes (images, renditions): never ingested as documents. */
export const DERIVED_PREFIX = 'documents/';
/**
 * Prefix of the e-mail attachments Parse writes, each then ingested as a document of its own (their
 * S3 events start their executions): `attachments/<message id>/<n>/<name>`.
 */
export { ATTACHMENT_PREFIX } from '#shared/documents/attachments.ts';
/** Prefix presigned uploads may write to. */
export const UPLOAD_PREFIX = 'uploads/';
/** Prefix of uploads into a chosen collection (`collections/<name>/`, shared/access `uploadPrefix`). */
export const COLLECTIONS_PREFIX = 'collections/';
/** Every key: a document can be ingested from anywhere in the bucket but `documents/`. */
export const ANY_KEY = '';

/**
 * The documents bucket's name, fixed per account and region so that the other stacks refer to it by
 * name (no cross-stack export: the stacks can be updated independently).
 */
export function documentsBucketName(settings: Settings): string {
  return `${settings.stackPrefix.toLowerCase()}-documents-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

/**
 * The documents bucket (private, SSE-S3, TLS only, versioned, EventBridge notifications on) and its
 * access-log bucket.
 */
export class StorageStack extends Stack {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: StackProps & { settings: Settings }) {
    super(scope, id, props);
    const { settings } = props;
    const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy,
    });
    acknowledge(
      accessLogs,
      'AwsSolutions-S1',
      'This bucket receives the access logs of the other buckets; logging it would log the logging.',
    );
    this.bucket = new Bucket(this, 'Documents', {
      bucketName: documentsBucketName(settings),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      eventBridgeEnabled: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        { noncurrentVersionExpiration: Duration.days(settings.noncurrentVersionDays) },
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // The web client PUTs files straight to presigned URLs from the page's origin.
      cors:
        settings.allowedOrigins.length > 0
          ? [
              {
                allowedMethods: [HttpMethods.PUT],
                allowedOrigins: settings.allowedOrigins,
                allowedHeaders: ['*'],
                exposedHeaders: ['ETag'],
                maxAge: 600,
              },
            ]
          : undefined,
      removalPolicy,
    });
    // eventBridgeEnabled is applied by a CDK-managed custom resource function (its basic execution
    // role: see nag-wildcards.ts).
    acknowledge(
      this,
      'AwsSolutions-IAM5[Resource::*]',
      'The CDK-managed bucket-notifications function configures notifications on buckets it is handed.',
    );
  }
}

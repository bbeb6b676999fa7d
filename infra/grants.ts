import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';

export interface ObjectAccess {
  /** Read objects and list keys. */
  read?: boolean;
  /** Key prefixes the grantee may write. */
  write?: string[];
  /** Key prefixes the grantee may delete under. */
  delete?: string[];
}

/**
 * Grants exactly the S3 actions DropQA's blob store uses (GetObject, ListBucket, PutObject,
 * DeleteObject), writes and deletes limited to key prefixes, instead of the CDK's wildcard grants.
 */
export function grantObjects(grantee: IGrantable, bucket: IBucket, access: ObjectAccess): void {
  const add = (actions: string[], resources: string[]) =>
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources }));
  if (access.read) {
    add(['s3:GetObject'], [bucket.arnForObjects('*')]);
    add(['s3:ListBucket'], [bucket.bucketArn]);
  }
  if (access.write?.length)
    add(
      ['s3:PutObject'],
      access.write.map((p) => bucket.arnForObjects(`${p}*`)),
    );
  if (access.delete?.length) {
    add(
      ['s3:DeleteObject'],
      access.delete.map((p) => bucket.arnForObjects(`${p}*`)),
    );
    if (!access.read) add(['s3:ListBucket'], [bucket.bucketArn]);
  }
}

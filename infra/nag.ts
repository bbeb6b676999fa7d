import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges a cdk-nag AwsSolutions finding on a construct and everything under it, with the
 * reason it is acceptable. The rule id is qualified with cdk-nag's namespace, which CDK's
 * validation matches against (an unqualified id would land in the "Annotation" namespace).
 *
 * @example acknowledge(bucket, 'AwsSolutions-S1', 'This bucket receives the other buckets' logs.')
 */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions::${rule}`, reason });
}

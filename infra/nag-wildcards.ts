import { createRequire } from 'node:module';
import { type IAspect, Stack } from 'aws-cdk-lib';
import { CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { acknowledge } from './nag.ts';

// cdk-nag's own rendering of a resource (`<Logical.Arn>`, export names), so findings match its ids.
const { flattenCfnReference } = createRequire(import.meta.url)(
  'cdk-nag/lib/utils/flatten-cfn-reference.js',
) as {
  flattenCfnReference(value: unknown): string;
};

/** Actions that have no resource-level permissions, so `Resource: *` is the only way to allow them. */
const RESOURCELESS_ACTIONS = new Set([
  'textract:DetectDocumentText',
  'bedrock:Rerank',
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
]);

/** Wildcard findings (cdk-nag AwsSolutions-IAM5) DropQA accepts, each with its reason. */
const JUSTIFIED: [RegExp, string][] = [
  [
    /^Resource::<[A-Za-z0-9]+\.Arn>:\*$/,
    'Invoking a named function also covers its versions and aliases (ARN:*).',
  ],
  [
    /^Resource::(arn:<AWS::Partition>:s3:::[a-z0-9-]+-documents-<AWS::AccountId>-<AWS::Region>|<Site[A-Za-z0-9]*\.Arn>)\/(uploads\/|documents\/|attachments\/)?\*$/,
    'Object keys inside the named bucket, or one prefix of it, cannot be listed in advance.',
  ],
  [
    /^Resource::arn:<AWS::Partition>:bedrock:\*::foundation-model\/[^*]+$/,
    'Cross-region inference routes a named model to any region, so the region part is a wildcard.',
  ],
];

interface Statement {
  Effect?: string;
  Action?: string | string[];
  Resource?: unknown;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function wildcardFindings(statements: Statement[]): { findings: Set<string>; starIsResourceless: boolean } {
  const findings = new Set<string>();
  let starIsResourceless = true;
  for (const s of statements) {
    if (s.Effect !== 'Allow') continue;
    const actions = list(s.Action);
    for (const a of actions) if (a.includes('*')) findings.add(`Action::${a}`);
    for (const r of list(s.Resource).map((x) => flattenCfnReference(x))) {
      if (!r.includes('*')) continue;
      findings.add(`Resource::${r}`);
      if (r === '*' && !actions.every((a) => RESOURCELESS_ACTIONS.has(a))) starIsResourceless = false;
    }
  }
  return { findings, starIsResourceless };
}

/**
 * Acknowledges the IAM wildcard findings that are justified (see `JUSTIFIED`; `Resource: *` only
 * for actions without resource-level permissions). Anything else stays an error at synthesis.
 * CDK-managed helper constructs under `exempt` paths are acknowledged by their own stacks.
 */
export class JustifiedWildcards implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnPolicy) && !(node instanceof CfnRole)) return;
    const stack = Stack.of(node);
    const documents =
      node instanceof CfnPolicy
        ? [stack.resolve(node.policyDocument)]
        : list(stack.resolve(node.policies) as { policyDocument: unknown }[]).map((p) =>
            stack.resolve(stack.resolve(p).policyDocument),
          );
    const statements = documents.flatMap((d) => list((d as { Statement?: Statement[] })?.Statement));
    const { findings, starIsResourceless } = wildcardFindings(statements);
    for (const finding of findings) {
      const reason =
        finding === 'Resource::*'
          ? starIsResourceless
            ? 'These Textract, X-Ray and CloudWatch Logs delivery actions have no resource-level permissions.'
            : undefined
          : JUSTIFIED.find(([pattern]) => pattern.test(finding))?.[1];
      if (reason) acknowledge(node, `AwsSolutions-IAM5[${finding}]`, reason);
    }
  }
}

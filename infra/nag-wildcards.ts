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

/**
 * How cdk-nag renders the parts of an ARN that depend on where the app is deployed: the CloudFormation
 * pseudo parameter while the stack is environment-agnostic, the value once `region` or `account` is
 * set (`-c region=eu-west-1`). A justification matches either, so it holds in every environment.
 */
const ENVIRONMENT_PARTS: Record<string, string> = {
  '{partition}': '(?:<AWS::Partition>|aws(?:-[a-z]+)*)',
  '{region}': '(?:<AWS::Region>|[a-z]{2}(?:-[a-z]+)+-\\d+)',
  '{account}': '(?:<AWS::AccountId>|\\d{12})',
};

/** A finding pattern whose `{partition}`, `{region}` and `{account}` match any environment's. */
function findingPattern(source: string): RegExp {
  return new RegExp(
    source.replace(/\{(partition|region|account)\}/g, (part) => ENVIRONMENT_PARTS[part] ?? part),
  );
}

/** Wildcard findings (cdk-nag AwsSolutions-IAM5) DropQA accepts, each with its reason. */
const JUSTIFIED: [RegExp, string][] = [
  [
    findingPattern('^Resource::<[A-Za-z0-9]+\\.Arn>:\\*$'),
    'Invoking a named function also covers its versions and aliases (ARN:*).',
  ],
  [
    findingPattern(
      '^Resource::(arn:{partition}:s3:::[a-z0-9-]+-documents-{account}-{region}|<Site[A-Za-z0-9]*\\.Arn>)\\/(uploads\\/|collections\\/|documents\\/|attachments\\/)?\\*$',
    ),
    'Object keys inside the named bucket, or one prefix of it, cannot be listed in advance.',
  ],
  [
    findingPattern('^Resource::arn:{partition}:s3:::cdk-[a-z0-9]+-assets-{account}-{region}\\/\\*$'),
    "The CDK's bucket deployment reads the site's files from the bootstrap asset bucket, under keys known only at deploy time.",
  ],
  [
    findingPattern(
      '^Resource::arn:{partition}:states:{region}:{account}:execution:<Ingestion[A-Za-z0-9]*\\.Name>:\\*$',
    ),
    "An ingestion execution's name is known only once it starts; its history is read after it ended.",
  ],
  [
    findingPattern('^Resource::arn:{partition}:bedrock:\\*::foundation-model\\/[^*]+$'),
    'Cross-region inference routes a named model to any region, so the region part is a wildcard.',
  ],
];

/** AWS managed policies (cdk-nag AwsSolutions-IAM4) DropQA accepts on a role, each with its reason. */
const JUSTIFIED_MANAGED: [RegExp, string][] = [
  [
    findingPattern('^Policy::arn:{partition}:iam::aws:policy\\/service-role\\/AWSLambdaBasicExecutionRole$'),
    'The AWS managed basic execution role only lets a function write its own logs.',
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
 * Acknowledges the IAM findings that are justified, computed from each policy and role as cdk-nag
 * renders them, so an acknowledgement never hard-codes one environment's form of an ARN: wildcards
 * (see `JUSTIFIED`; `Resource: *` only for actions without resource-level permissions) and AWS
 * managed policies (see `JUSTIFIED_MANAGED`). Anything else stays an error at synthesis.
 */
export class JustifiedIamFindings implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnPolicy) && !(node instanceof CfnRole)) return;
    const stack = Stack.of(node);
    if (node instanceof CfnRole) {
      const managed = list(stack.resolve(node.managedPolicyArns) as unknown[] | undefined);
      for (const arn of managed) {
        const finding = `Policy::${flattenCfnReference(stack.resolve(arn))}`;
        const reason = JUSTIFIED_MANAGED.find(([pattern]) => pattern.test(finding))?.[1];
        if (reason) acknowledge(node, `AwsSolutions-IAM4[${finding}]`, reason);
      }
    }
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

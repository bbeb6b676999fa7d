import { runSimulation, runUnsafeSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { DEPLOYMENT, type TemplateValues } from './template-values.ts';
import type { IamCall } from './wire-calls.ts';

type PolicyDocument = { Statement: Statement[] };
interface Statement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  Resource?: string | string[];
}

/** A function's execution role as synthesized: its identity policies, resolved to concrete ARNs. */
export interface FunctionRole {
  /** `Api/Ask`: the stack and the function's construct id. */
  name: string;
  roleArn: string;
  policies: { name: string; policy: PolicyDocument }[];
  /** AWS managed policies attached by ARN (not simulated: their documents are not in the template). */
  managed: string[];
}

const refersTo = (value: unknown, id: string) => JSON.stringify(value).includes(`{"Ref":"${id}"}`);

/**
 * The role of the function whose construct id is `functionId` in `stack`: the inline policies of
 * the role and every AWS::IAM::Policy or AWS::IAM::ManagedPolicy attached to it, resolved.
 */
export function functionRole(values: TemplateValues, stack: string, functionId: string): FunctionRole {
  const resources = values.stacks[stack]?.Resources ?? {};
  const fnId = Object.keys(resources).find(
    (id) =>
      resources[id]?.Type === 'AWS::Lambda::Function' && new RegExp(`^${functionId}[0-9A-F]{8}$`).test(id),
  );
  if (!fnId) throw new Error(`no function ${functionId} in ${stack}`);
  const roleRef = resources[fnId]?.Properties?.Role as { 'Fn::GetAtt'?: [string, string] };
  const roleId = roleRef['Fn::GetAtt']?.[0];
  if (!roleId) throw new Error(`${stack}/${functionId} has no role of its stack`);
  const role = values.resolve(resources[roleId]?.Properties ?? {}, stack) as {
    Policies?: { PolicyName: string; PolicyDocument: PolicyDocument }[];
    ManagedPolicyArns?: string[];
  };
  const attached = Object.entries(resources)
    .filter(
      ([, r]) =>
        ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].includes(r.Type) &&
        refersTo(r.Properties?.Roles, roleId),
    )
    .map(([id, r]) => ({
      name: id,
      policy: values.resolve(r.Properties?.PolicyDocument, stack) as PolicyDocument,
    }));
  return {
    name: `${stack}/${functionId}`,
    roleArn: String(values.resolve({ 'Fn::GetAtt': [roleId, 'Arn'] }, stack)),
    policies: [
      ...(role.Policies ?? []).map((p) => ({ name: p.PolicyName, policy: p.PolicyDocument })),
      ...attached,
    ],
    managed: role.ManagedPolicyArns ?? [],
  };
}

/** The bucket policies of the stacks, by bucket ARN (resource policies S3 evaluates too). */
export function bucketPolicies(values: TemplateValues): Map<string, PolicyDocument> {
  const policies = new Map<string, PolicyDocument>();
  for (const [stack, template] of Object.entries(values.stacks)) {
    for (const resource of Object.values(template.Resources)) {
      if (resource.Type !== 'AWS::S3::BucketPolicy') continue;
      const { Bucket, PolicyDocument } = values.resolve(resource.Properties, stack) as {
        Bucket: string;
        PolicyDocument: PolicyDocument;
      };
      policies.set(`arn:${DEPLOYMENT.partition}:s3:::${Bucket}`, PolicyDocument);
    }
  }
  return policies;
}

/** An ARN without a region (`arn:aws:bedrock:::foundation-model/...`). */
const REGIONLESS = /^arn:[^:]+:[^:]+::/;

export interface Denial {
  role: string;
  call: IamCall;
  result: string;
}

/**
 * Each distinct call evaluated with @cloud-copilot/iam-simulate against its caller's role (and, for
 * S3, the bucket's policy) in Strict mode; returns those not allowed. A caller without a role, or a
 * simulation that cannot run (an invalid policy, an action unknown to the IAM data), is a denial too.
 */
export async function deniedCalls(
  calls: IamCall[],
  roleOf: (caller: string) => FunctionRole | undefined,
  resourcePolicies: Map<string, PolicyDocument>,
): Promise<Denial[]> {
  const distinct = new Map(
    calls.map((c) => [JSON.stringify([c.caller, c.action, c.resource, c.context]), c]),
  );
  const denials: Denial[] = [];
  for (const call of distinct.values()) {
    const role = roleOf(call.caller);
    if (!role) {
      denials.push({ role: call.caller, call, result: 'no role is known for this caller' });
      continue;
    }
    const bucket = call.action.startsWith('s3:')
      ? call.resource.replace(/^(arn:[^:]+:s3:::[^/]+).*$/, '$1')
      : '';
    const resourcePolicy = resourcePolicies.get(bucket);
    const simulation: Simulation = {
      request: {
        principal: role.roleArn,
        action: call.action,
        resource: { resource: call.resource, accountId: DEPLOYMENT.account },
        contextVariables: call.context,
      },
      identityPolicies: role.policies,
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      ...(resourcePolicy ? { resourcePolicy } : {}),
    };
    const result = await runSimulation(simulation, { simulationMode: 'Strict' });
    // The IAM data knows no resource type for a region-less ARN (a global inference profile's
    // foundation model), which AWS does authorize: the same engine evaluates it without that check.
    const outcome =
      result.resultType !== 'error'
        ? result.overallResult
        : result.errors.message === 'no.resource.types' && REGIONLESS.test(call.resource)
          ? runUnsafeSimulation(simulation, { simulationMode: 'Strict' })
          : result.errors.message;
    if (outcome !== 'Allowed') denials.push({ role: role.name, call, result: outcome });
  }
  return denials;
}

/** `Api/Ask may not s3:PutObject on arn:...:bucket/documents/x (S3 PutObject): ImplicitlyDenied`. */
export const describeDenial = ({ role, call, result }: Denial) =>
  `${role} may not ${call.action} on ${call.resource} (${call.operation}): ${result}`;

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/**
 * The Allow grants (action and resource pattern) of `role` that no call in `calls` used: grants
 * the scenarios never needed. Wildcard-only actions (X-Ray, Rerank, Textract) count as used by any
 * call of that action.
 */
export function unusedGrants(role: FunctionRole, calls: IamCall[]): string[] {
  const unused: string[] = [];
  for (const { policy } of role.policies) {
    for (const statement of policy.Statement) {
      if (statement.Effect !== 'Allow') continue;
      for (const action of [statement.Action ?? []].flat()) {
        for (const resource of [statement.Resource ?? []].flat()) {
          const [actions, resources] = [glob(action), glob(resource)];
          if (!calls.some((c) => actions.test(c.action) && resources.test(c.resource)))
            unused.push(`${action} on ${resource}`);
        }
      }
    }
  }
  return unused;
}

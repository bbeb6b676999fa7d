/** The account, region and partition the synthesized templates are resolved in (one fixed deployment). */
export const DEPLOYMENT = { account: '123456789012', region: 'us-east-1', partition: 'aws' } as const;

type Json = unknown;
interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
}
export interface CfnTemplate {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, { Value: Json; Export?: { Name: Json } }>;
}

const { account, region, partition } = DEPLOYMENT;
const PSEUDO: Record<string, string> = {
  'AWS::AccountId': account,
  'AWS::Region': region,
  'AWS::Partition': partition,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::NoValue': '',
};

type Derive = (id: string, resource: Resource, values: TemplateValues, stack: string) => string;

/** A bucket's name: the one it is given, else its logical id's. */
const bucketName: Derive = (id, r, values, stack) =>
  r.Properties?.BucketName ? String(values.resolve(r.Properties.BucketName, stack)) : id.toLowerCase();

/** What `Ref` of a resource answers, by type: the ARN for types whose Ref is one, else a name. */
const REF: Record<string, Derive> = {
  'AWS::S3::Bucket': bucketName,
  'AWS::SecretsManager::Secret': (id) =>
    `arn:${partition}:secretsmanager:${region}:${account}:secret:${id}-AbCdEf`,
  // The attachment's Ref is the ARN of the secret it attaches.
  'AWS::SecretsManager::SecretTargetAttachment': (_id, r, values, stack) =>
    values.resolve(r.Properties?.SecretId, stack) as string,
  'AWS::StepFunctions::StateMachine': (id) =>
    `arn:${partition}:states:${region}:${account}:stateMachine:${id}`,
  'AWS::Cognito::UserPool': (id) => `${region}_${id}`,
  'AWS::RDS::DBCluster': (id) => id.toLowerCase(),
  'AWS::SQS::Queue': (id) => `https://sqs.${region}.amazonaws.com/${account}/${id}`,
};

/** What `Fn::GetAtt [id, 'Arn']` answers, by type. */
const ARN: Record<string, Derive> = {
  'AWS::Lambda::Function': (id) => `arn:${partition}:lambda:${region}:${account}:function:${id}`,
  'AWS::IAM::Role': (id) => `arn:${partition}:iam::${account}:role/${id}`,
  'AWS::SQS::Queue': (id) => `arn:${partition}:sqs:${region}:${account}:${id}`,
  'AWS::S3::Bucket': (...args) => `arn:${partition}:s3:::${bucketName(...args)}`,
  'AWS::Logs::LogGroup': (id) => `arn:${partition}:logs:${region}:${account}:log-group:${id}:*`,
  'AWS::StepFunctions::StateMachine': (id) =>
    `arn:${partition}:states:${region}:${account}:stateMachine:${id}`,
  'AWS::Cognito::UserPool': (id) =>
    `arn:${partition}:cognito-idp:${region}:${account}:userpool/${region}_${id}`,
};

/** What `Fn::GetAtt [id, 'Name']` answers, by type (the name in the ARN above). */
const NAME: Record<string, Derive> = {
  'AWS::StepFunctions::StateMachine': (id) => id,
};

/**
 * The synthesized stacks' values as one deployment in `DEPLOYMENT` would give them: `Ref`,
 * `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::Select` and `Fn::ImportValue` (across the stacks)
 * resolved to concrete strings, resources' physical ids derived from their logical ids the same way
 * everywhere, so an ARN a function's environment names is the ARN its policy names. An intrinsic or
 * attribute it does not know is an error naming it, never a guess.
 *
 * @example new TemplateValues({ Api: api.toJSON(), ... }).resolve(fn.Properties.Environment, 'Api')
 */
export class TemplateValues {
  private readonly exports = new Map<string, { stack: string; value: Json }>();

  constructor(readonly stacks: Record<string, CfnTemplate>) {
    for (const [stack, template] of Object.entries(stacks)) {
      for (const output of Object.values(template.Outputs ?? {})) {
        if (output.Export) this.exports.set(String(output.Export.Name), { stack, value: output.Value });
      }
    }
  }

  /** `value` of `stack` with every intrinsic function resolved (objects and arrays deeply). */
  resolve(value: Json, stack: string): Json {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, stack));
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, Json>);
    const [name, arg] = entries[0] ?? [];
    if (entries.length === 1 && name && (name === 'Ref' || name.startsWith('Fn::')))
      return this.intrinsic(name, arg, stack);
    return Object.fromEntries(entries.map(([k, v]) => [k, this.resolve(v, stack)]));
  }

  /** The resource `id` of `stack`. */
  resource(stack: string, id: string): Resource {
    const resource = this.stacks[stack]?.Resources[id];
    if (!resource) throw new Error(`no resource ${id} in ${stack}`);
    return resource;
  }

  private intrinsic(name: string, arg: Json, stack: string): string {
    const text = (v: Json) => String(this.resolve(v, stack));
    switch (name) {
      case 'Ref': {
        const id = String(arg);
        if (PSEUDO[id] !== undefined) return PSEUDO[id];
        if (id === 'AWS::StackName') return stack;
        const resource = this.resource(stack, id);
        return REF[resource.Type]?.(id, resource, this, stack) ?? id;
      }
      case 'Fn::GetAtt': {
        const [id, attribute] = Array.isArray(arg) ? arg.map(String) : String(arg).split('.');
        const resource = this.resource(stack, String(id));
        const arn =
          attribute === 'Arn' ? ARN[resource.Type] : attribute === 'Name' ? NAME[resource.Type] : undefined;
        if (!arn)
          throw new Error(`Fn::GetAtt ${id}.${attribute} (${resource.Type}) is not resolved by the test`);
        return arn(String(id), resource, this, stack);
      }
      case 'Fn::Join': {
        const [separator, parts] = arg as [string, Json[]];
        return parts.map(text).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = arg as [Json, Json];
        return String((this.resolve(list, stack) as Json[])[Number(this.resolve(index, stack))]);
      }
      case 'Fn::Split': {
        const [separator, source] = arg as [string, Json];
        return text(source).split(separator) as never;
      }
      case 'Fn::Sub': {
        const [template, variables] = Array.isArray(arg)
          ? (arg as [string, Record<string, Json>])
          : [String(arg), {}];
        return template.replace(/\$\{([^}!]+)\}/g, (_, ref: string) => {
          if (variables[ref] !== undefined) return text(variables[ref]);
          const [id, attribute] = ref.split('.');
          return attribute ? text({ 'Fn::GetAtt': [id, attribute] }) : text({ Ref: ref });
        });
      }
      case 'Fn::ImportValue': {
        const exported = this.exports.get(text(arg));
        if (!exported) throw new Error(`no stack exports ${text(arg)}`);
        return String(this.resolve(exported.value, exported.stack));
      }
      default:
        throw new Error(`${name} is not resolved by the test`);
    }
  }
}

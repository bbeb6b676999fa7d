/**
 * Where a Bedrock cross-region inference profile sends its requests, by the geography prefix of its
 * id (`us.anthropic...`): the regions whose foundation model a caller must also be allowed to invoke
 * (the AWS documentation's "Supported Regions and models for inference profiles"). `global.` routes
 * to any commercial region: see `modelResources`.
 */
const PROFILE_REGIONS: Record<string, readonly string[]> = {
  us: ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2'],
  'us-gov': ['us-gov-east-1', 'us-gov-west-1'],
  eu: ['eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1', 'eu-south-2', 'eu-west-1', 'eu-west-3'],
  apac: [
    'ap-east-2',
    'ap-northeast-1',
    'ap-northeast-2',
    'ap-northeast-3',
    'ap-south-1',
    'ap-south-2',
    'ap-southeast-1',
    'ap-southeast-2',
    'ap-southeast-3',
    'ap-southeast-4',
    'ap-southeast-5',
    'ap-southeast-7',
  ],
  jp: ['ap-northeast-1', 'ap-northeast-3'],
  au: ['ap-southeast-2', 'ap-southeast-4'],
  ca: ['ca-central-1', 'ca-west-1'],
};

export interface ModelArnScope {
  partition: string;
  /** The stack's region (a token when the stack is environment-agnostic). */
  region: string;
  account: string;
}

/**
 * The resources an `InvokeModel` of `model` needs: an in-region model's foundation-model ARN, or for
 * an inference profile (`global.`, `us.`, `eu.`, ... prefixed ids) the profile's ARN in the caller's
 * region plus the foundation model in every region the profile routes to. A `global.` profile gets
 * the foundation model in the caller's region and the region-less foundation-model ARN, as AWS's
 * policy example for global cross-Region inference lists them (docs/aws.md cites the page). An id
 * of an unknown geography is granted in any region; an ARN as it is (an application inference
 * profile's models must then be named by ARN too).
 *
 * @example modelResources('us.anthropic.claude-haiku-4-5-20251001-v1:0', scope)
 * // [inference-profile/us.anthropic..., foundation-model/anthropic... in us-east-1, us-east-2, ...]
 */
export function modelResources(model: string, { partition, region, account }: ModelArnScope): string[] {
  if (model.startsWith('arn:')) return [model];
  const match = /^(global|us-gov|us|eu|apac|jp|au|ca)\.(.+)$/.exec(model);
  if (!match?.[1] || !match[2]) return [`arn:${partition}:bedrock:${region}::foundation-model/${model}`];
  const [, geo, base] = match;
  const profile = `arn:${partition}:bedrock:${region}:${account}:inference-profile/${model}`;
  if (geo === 'global')
    return [
      profile,
      `arn:${partition}:bedrock:${region}::foundation-model/${base}`,
      `arn:${partition}:bedrock:::foundation-model/${base}`,
    ];
  const regions = PROFILE_REGIONS[geo] ?? ['*'];
  return [profile, ...regions.map((r) => `arn:${partition}:bedrock:${r}::foundation-model/${base}`)];
}

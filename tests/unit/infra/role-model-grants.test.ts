import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#shared/config/index.ts';
import { bedrockModels } from '#shared/llm/provider-settings.ts';
import { buildApp, type DropQaApp } from '../../../infra/build-app.ts';
import { modelResources } from '../../../infra/model-grants.ts';
import { readSettings } from '../../../infra/settings.ts';

const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA = 'eu.amazon.nova-lite-v1:0';
const PROVISIONED = 'arn:aws:bedrock:eu-west-1:123456789012:provisioned-model/abc123';
const RERANK = 'cohere.rerank-v3-5:0';
const HAIKU = 'anthropic.claude-haiku-4-5-20251001-v1:0';

type Resource = { Properties: Record<string, unknown> };
type Statement = { Action: string | string[]; Resource: unknown };

/** Each function's environment and the resources its role may InvokeModel on. */
function functionGrants(stack: Stack) {
  const template = Template.fromStack(stack);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as Resource[];
  const functions = Object.entries(template.findResources('AWS::Lambda::Function')) as [string, Resource][];
  return functions.map(([id, fn]) => {
    const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    // A reference (bucket name, database ARNs) stands in as a placeholder: the models are literals.
    const env = Object.fromEntries(
      Object.entries(variables ?? {}).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : 'ref',
      ]),
    );
    const invokable = policies
      .filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: role }]))
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .filter((s) => [s.Action].flat().includes('bedrock:InvokeModel'))
      .flatMap((s) => [s.Resource].flat());
    return { id, env, invokable };
  });
}

describe('Bedrock grants of per-role models in the CDK app', () => {
  let built: DropQaApp;
  beforeAll(() => {
    built = buildApp(
      { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
      {
        region: 'eu-west-1',
        roleModels: `answer=${SONNET},summarize=${NOVA},describeImage=${PROVISIONED}`,
        rerankModel: RERANK,
      },
      { checks: false },
    );
    built.app.synth();
  });

  it('configures each function with the role models', () => {
    const ask = functionGrants(built.api).find((f) => f.env.DROPQA_PROVIDERS__CHAT__KIND === 'bedrock');
    expect(ask?.env).toMatchObject({
      DROPQA_PROVIDERS__ROLES__ANSWER__MODEL: SONNET,
      DROPQA_PROVIDERS__ROLES__SUMMARIZE__MODEL: NOVA,
      DROPQA_PROVIDERS__ROLES__DESCRIBE_IMAGE__MODEL: PROVISIONED,
    });
  });

  it('lets every function that calls models invoke each model its own configuration names', () => {
    const checked: string[] = [];
    for (const stack of [built.pipeline, built.api]) {
      for (const { id, env, invokable } of functionGrants(stack)) {
        if (invokable.length === 0) continue;
        const models = bedrockModels(loadConfig({ env, file: false }));
        expect(models).toEqual(expect.arrayContaining([SONNET, NOVA, PROVISIONED, RERANK]));
        const expected = models.flatMap((model) => stack.resolve(modelResources(model, stack)) as unknown[]);
        expect(invokable, id).toEqual(expect.arrayContaining(expected));
        checked.push(id);
      }
    }
    // Parse, DescribeImage, Summarize, Topics and the ask function call models.
    expect(checked).toHaveLength(5);
  });

  it('grants a geography profile with its foundation model in each region it routes to, an ARN as it is', () => {
    const summarize = functionGrants(built.pipeline).find((f) => f.id.startsWith('Summarize'));
    const granted = JSON.stringify(summarize?.invokable);
    expect(granted).toContain(`inference-profile/${SONNET}`);
    for (const region of ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2']) {
      expect(granted).toContain(
        `:bedrock:${region}::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0`,
      );
    }
    expect(granted).toContain(`inference-profile/${NOVA}`);
    expect(granted).toContain(':bedrock:eu-west-3::foundation-model/amazon.nova-lite-v1:0');
    expect(granted).toContain(`"${PROVISIONED}"`);
    expect(granted).toContain(`:bedrock:eu-west-1::foundation-model/${RERANK}`);
  });

  it('grants a global profile with the foundation model in the calling region and without a region', () => {
    // The other roles stay on the default chat model, Claude Haiku 4.5 through its global profile.
    const summarize = functionGrants(built.pipeline).find((f) => f.id.startsWith('Summarize'));
    const granted = JSON.stringify(summarize?.invokable);
    expect(granted).toContain(`:inference-profile/global.${HAIKU}`);
    // AWS's policy example for global cross-Region inference lists all three.
    expect(granted).toContain(`:bedrock:eu-west-1::foundation-model/${HAIKU}`);
    expect(granted).toContain(`:bedrock:::foundation-model/${HAIKU}`);
  });
});

describe('the roleModels setting', () => {
  it('reads role=model pairs from -c and an object from cdk.json', () => {
    expect(readSettings(new App(), { roleModels: `answer=${SONNET}, judge = ${NOVA}` }).roleModels).toEqual({
      answer: SONNET,
      judge: NOVA,
    });
    expect(readSettings(new App({ context: { roleModels: { summarize: NOVA } } })).roleModels).toEqual({
      summarize: NOVA,
    });
  });

  it('refuses an unknown role, condense (condenseModel sets it) and an empty model', () => {
    expect(() => readSettings(new App(), { roleModels: 'answr=x' })).toThrow(
      /roleModels: roles are answer, /,
    );
    expect(() => readSettings(new App(), { roleModels: 'condense=x' })).toThrow(/condense has condenseModel/);
    expect(() => readSettings(new App(), { roleModels: 'answer=' })).toThrow(
      /roleModels\.answer: a model id/,
    );
  });
});

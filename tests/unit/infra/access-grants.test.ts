import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLambdaEnv } from '../../../functions/lib/env.ts';
import { buildApp } from '../../../infra/build-app.ts';

const GRANTS = {
  hr: { read: ['hr', 'handbook'], write: ['hr'] },
  engineering: { read: ['handbook'], write: ['engineering'] },
};
const PREFIXES = { 'hr/': 'hr', 'eng/': 'engineering' };

type Fn = { Properties: { Environment?: { Variables?: Record<string, string> } } };
const variablesOf = (template: Template) =>
  Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Fn>)
    .filter(([id]) => !id.startsWith('LogRetention') && !id.startsWith('AWS'))
    .map(([id, fn]) => [id, fn.Properties.Environment?.Variables ?? {}] as const);

function synth(overrides: Record<string, unknown>) {
  const built = buildApp(
    { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
    overrides,
    { checks: false },
  );
  built.app.synth();
  return { api: Template.fromStack(built.api), pipeline: Template.fromStack(built.pipeline) };
}

describe('access grants in the AWS deployment', () => {
  let api: Template;
  let pipeline: Template;
  beforeAll(() => {
    // As `-c accessGrants='{...}'` passes it: a JSON string.
    ({ api, pipeline } = synth({ accessGrants: JSON.stringify(GRANTS), collectionPrefixes: PREFIXES }));
  });

  it('gives the ask function the grants, which it reads back as they were set', () => {
    const ask = variablesOf(api).find(([id]) => id.startsWith('Ask'))?.[1];
    expect(ask?.ACCESS_GRANTS).toBeDefined();
    expect(readLambdaEnv({ ACCESS_GRANTS: ask?.ACCESS_GRANTS }).ACCESS_GRANTS).toEqual(GRANTS);
  });

  it('creates admin and each granting group in the user pool', () => {
    const groups = Object.values(api.findResources('AWS::Cognito::UserPoolGroup')).map(
      (g) => g.Properties.GroupName,
    );
    expect(groups.sort()).toEqual(['admin', 'engineering', 'hr']);
  });

  it('gives the ask function and every pipeline function the bucket folders collections', () => {
    const all = [...variablesOf(api), ...variablesOf(pipeline)].filter(([, v]) => v.DROPQA_BUCKET);
    expect(all.length).toBeGreaterThan(5);
    for (const [id, variables] of all) {
      expect(JSON.parse(variables.DROPQA_COLLECTIONS__PREFIXES ?? '{}'), id).toEqual(PREFIXES);
    }
  });

  it('lets the ask function presign uploads into collections/<name>/', () => {
    const policies = JSON.stringify(
      Object.entries(api.findResources('AWS::IAM::Policy'))
        .filter(([id]) => id.startsWith('AskServiceRoleDefaultPolicy'))
        .map(([, p]) => p.Properties.PolicyDocument.Statement),
    );
    expect(policies).toContain('/collections/*');
  });

  it('grants nothing by default (only admin members see anything)', () => {
    const plain = synth({});
    const ask = variablesOf(plain.api).find(([id]) => id.startsWith('Ask'))?.[1];
    expect(ask?.ACCESS_GRANTS).toBe('{}');
    expect(Object.keys(plain.api.findResources('AWS::Cognito::UserPoolGroup'))).toHaveLength(1);
  });

  it('refuses grants that name a bad collection, naming the setting', () => {
    expect(() => synth({ accessGrants: { hr: { read: ['HR files'] } } })).toThrow(/accessGrants\.hr\.read/);
    expect(() => synth({ accessGrants: '{not json' })).toThrow(/accessGrants/);
    expect(() => readLambdaEnv({ ACCESS_GRANTS: '{"hr":{"reed":["hr"]}}' })).toThrow(/ACCESS_GRANTS/);
  });
});

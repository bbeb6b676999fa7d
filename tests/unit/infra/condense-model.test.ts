import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../infra/build-app.ts';

const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const HAIKU = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';

describe('the condense role in the AWS deployment', () => {
  it('rewrites follow-ups with the small default model when a larger chat model answers, and may call it', () => {
    const built = buildApp(
      { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
      { chatModel: SONNET },
      { checks: false },
    );
    built.app.synth();
    const api = Template.fromStack(built.api);
    const ask = Object.values(api.findResources('AWS::Lambda::Function')).find(
      (f) => f.Properties.Environment?.Variables?.DROPQA_PROVIDERS__CHAT__MODEL === SONNET,
    );
    expect(ask?.Properties.Environment.Variables.DROPQA_PROVIDERS__ROLES__CONDENSE__MODEL).toBe(HAIKU);
    const granted = JSON.stringify(api.findResources('AWS::IAM::Policy'));
    expect(granted).toContain(`inference-profile/${SONNET}`);
    expect(granted).toContain(`inference-profile/${HAIKU}`);
  });
});

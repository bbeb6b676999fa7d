import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { grantModels, providerEnvironment } from '../../../infra/providers-env.ts';
import { readSettings } from '../../../infra/settings.ts';

function granted(rerankModel?: string) {
  const app = new App();
  const settings = readSettings(app, { region: 'us-west-2', ...(rerankModel ? { rerankModel } : {}) });
  const stack = new Stack(app, 'S', { env: { region: 'us-west-2', account: '123456789012' } });
  const role = new Role(stack, 'R', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  grantModels(role, settings, stack);
  const policies = Template.fromStack(stack).findResources('AWS::IAM::Policy');
  const statements = Object.values(policies).flatMap(
    (p) =>
      (p as { Properties: { PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } } })
        .Properties.PolicyDocument.Statement,
  );
  return { settings, statements: JSON.stringify(statements) };
}

describe('Bedrock rerank in the CDK app', () => {
  it('with -c rerankModel: configures the functions for it and grants Rerank and the model', () => {
    const { settings, statements } = granted('amazon.rerank-v1:0');
    expect(providerEnvironment(settings)).toMatchObject({
      DROPQA_SEARCH__RERANK__KIND: 'bedrock',
      DROPQA_SEARCH__RERANK__MODEL: 'amazon.rerank-v1:0',
    });
    expect(statements).toContain('"Action":"bedrock:Rerank","Effect":"Allow","Resource":"*"');
    expect(statements).toContain('foundation-model/amazon.rerank-v1:0');
  });

  it('without it: no reranking and no Rerank grant', () => {
    const { settings, statements } = granted();
    expect(providerEnvironment(settings)).not.toHaveProperty('DROPQA_SEARCH__RERANK__KIND');
    expect(statements).not.toContain('bedrock:Rerank');
  });
});

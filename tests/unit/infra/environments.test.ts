import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../infra/build-app.ts';
import { REPO_ROOT } from '../../../infra/paths.ts';

/**
 * Synthesizes the whole app with cdk-nag's AwsSolutions checks in one environment (no bundling):
 * synthesis throws on any unacknowledged finding.
 */
function synthesizeIn(context: Record<string, string>): void {
  const built = buildApp({
    context: { 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: false,
  });
  built.app.synth();
}

describe('cdk-nag acknowledgements in every environment', () => {
  // A set region or account puts its value where an environment-agnostic stack has a pseudo
  // parameter; another partition or bootstrap qualifier changes ARNs and the asset bucket's name.
  it.each([
    ['a region (the documented deploy)', { region: 'eu-west-1' }],
    ['a region and an account', { region: 'eu-west-1', account: '123456789012' }],
    ['another partition', { region: 'cn-north-1', account: '123456789012' }],
    ['GovCloud', { region: 'us-gov-west-1' }],
    ['a custom bootstrap qualifier', { region: 'us-east-1', '@aws-cdk/core:bootstrapQualifier': 'dropqa1' }],
  ])('synthesizes with no unacknowledged finding with %s', (_, context) => {
    expect(() => synthesizeIn(context)).not.toThrow();
  });

  it('leaves no acknowledgement hard-coding one environment’s form of an ARN in the stacks', () => {
    // Findings that name ARNs are acknowledged by pattern, in one place (infra/nag-wildcards.ts).
    const sources = readdirSync(join(REPO_ROOT, 'infra'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== 'nag-wildcards.ts')
      .filter((file) =>
        /<AWS::|Policy::arn:|Resource::arn:/.test(readFileSync(join(REPO_ROOT, 'infra', file), 'utf8')),
      );
    expect(sources).toEqual([]);
  });

  it('refuses an account id that is not 12 digits, naming the setting', () => {
    expect(() => synthesizeIn({ account: '1234' })).toThrow(/account: a 12-digit AWS account id/);
  });
});

import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../infra/build-app.ts';
import type { Settings } from '../../../infra/settings.ts';

/** The api stack's template with the given settings (no bundling, no checks: the shape only). */
function api(overrides: Partial<Record<keyof Settings, unknown>>) {
  const built = buildApp(
    { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
    overrides,
    { checks: false },
  );
  return Template.fromStack(built.api);
}

describe('the ask function’s concurrency', () => {
  it('is reserved only when askConcurrency asks for it (from -c, a string)', () => {
    const reserved = Object.values(api({ askConcurrency: '25' }).findResources('AWS::Lambda::Function')).map(
      (fn) => fn.Properties.ReservedConcurrentExecutions,
    );
    expect(reserved).toContain(25);
    const unreserved = Object.values(api({}).findResources('AWS::Lambda::Function')).map(
      (fn) => fn.Properties.ReservedConcurrentExecutions,
    );
    expect(unreserved.filter((n) => n !== undefined)).toEqual([]);
  });
});

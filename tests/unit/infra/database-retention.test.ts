import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../infra/build-app.ts';

type Resource = { Type: string; DeletionPolicy?: string; UpdateReplacePolicy?: string; Properties: unknown };

function database(retainData: boolean) {
  const built = buildApp(
    { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
    { retainData },
    { checks: false },
  );
  const template = Template.fromStack(built.database);
  const only = (type: string): [string, Resource] => {
    const found = Object.entries(template.findResources(type)) as [string, Resource][];
    expect(found).toHaveLength(1);
    return found[0] as [string, Resource];
  };
  return { cluster: only('AWS::RDS::DBCluster')[1], secret: only('AWS::SecretsManager::Secret') };
}

describe('the database secret on stack deletion', () => {
  it('is kept with the snapshot it unlocks when data is retained (the default)', () => {
    const { cluster, secret } = database(true);
    expect(cluster.DeletionPolicy).toBe('Snapshot');
    expect(secret[1].DeletionPolicy).toBe('Retain');
    expect(secret[1].UpdateReplacePolicy).toBe('Retain');
    // The secret kept is the one the cluster's master password comes from.
    expect(JSON.stringify(cluster.Properties)).toContain(`{"Ref":"${secret[0]}"}`);
  });

  it('is deleted with the cluster when retainData is false', () => {
    const { cluster, secret } = database(false);
    expect(cluster.DeletionPolicy).toBe('Delete');
    expect(secret[1].DeletionPolicy).toBe('Delete');
  });
});

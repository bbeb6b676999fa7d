import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../infra/build-app.ts';
import { MIGRATIONS_DIR, migrationsHash } from '../../../infra/migrations-hash.ts';

const copy = mkdtempSync(join(tmpdir(), 'dropqa-migrations-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the Schema custom resource (migrations on deploy)', () => {
  it('is keyed on the migrations’ contents, not on the day of the deploy', () => {
    const built = buildApp(
      { context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false },
      {},
      { checks: false },
    );
    const schema = Object.values(
      Template.fromStack(built.database).findResources('AWS::CloudFormation::CustomResource'),
    );
    expect(schema).toHaveLength(1);
    const { ServiceToken: _, ...properties } = (schema[0]?.Properties ?? {}) as Record<string, unknown>;
    // The only property CloudFormation compares between deploys: it changes exactly with the files.
    expect(properties).toEqual({ migrations: migrationsHash() });
  });

  it('changes with a new migration or an edited one, and only then', () => {
    cpSync(MIGRATIONS_DIR, copy, { recursive: true });
    const before = migrationsHash(copy);
    expect(migrationsHash(copy)).toBe(before);
    writeFileSync(join(copy, '9999_later.sql'), 'CREATE TABLE later (id int);');
    const added = migrationsHash(copy);
    expect(added).not.toBe(before);
    writeFileSync(join(copy, 'meta', '_journal.json'), '{}');
    expect(migrationsHash(copy)).not.toBe(added);
  });
});

import type { Template } from 'aws-cdk-lib/assertions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, schema } from '#shared/db/index.ts';
import { deleteDocument, derivedPrefix } from '#shared/documents/delete.ts';
import { removeObject } from '#shared/documents/remove-object.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { synthesizeApp } from '../../unit/infra/synth.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const { documents } = schema;

/**
 * The key patterns a function's role may `s3:DeleteObject` on, read from its synthesized policies
 * (`arn:...:bucket/documents/*` -> `documents/`, `bucket/*` -> every key).
 */
function deletablePrefixes(template: Template, functionId: string): string[] {
  const policies = Object.entries(template.findResources('AWS::IAM::Policy')).filter(([name]) =>
    name.startsWith(`${functionId}ServiceRoleDefaultPolicy`),
  );
  const statements = policies.flatMap(
    ([, p]) => (p.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]) ?? [],
  );
  return statements
    .filter((s) => [s.Action].flat().includes('s3:DeleteObject'))
    .flatMap((s) => [s.Resource].flat())
    .map((resource) => {
      const joined = JSON.stringify(resource);
      const match = /\/([^"/]*\/?)\*"/.exec(joined) ?? /"\/\*"/.exec(joined);
      if (!match) throw new Error(`unreadable resource ${joined}`);
      return match[1] ?? '';
    });
}

/** A store that refuses deletes outside `prefixes`, as S3 answers a role without the grant. */
function guarded(store: BlobStore, prefixes: string[]): BlobStore {
  const allowed = (key: string) => prefixes.some((p) => key.startsWith(p));
  return {
    ...store,
    put: store.put.bind(store),
    putFile: store.putFile.bind(store),
    get: store.get.bind(store),
    head: store.head.bind(store),
    list: store.list.bind(store),
    async delete(key) {
      if (!allowed(key)) throw new Error(`AccessDenied: s3:DeleteObject on ${key}`);
      return store.delete(key);
    },
    async deletePrefix(prefix) {
      if (!allowed(prefix)) throw new Error(`AccessDenied: s3:DeleteObject under ${prefix}`);
      return store.deletePrefix(prefix);
    },
  };
}

describe("deleting documents with the deployed roles' S3 grants", () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let askPrefixes: string[];
  let ingestPrefixes: string[];
  const ingest = async (key: string) => {
    await deps.store.put(key, utf8(`# ${key}\n\n![chart](chart.png)\n\nText of ${key}.\n`));
    const [outcome] = await createIngestService(deps).ingest([{ key, bytes: await deps.store.get(key) }]);
    return outcome?.documentId as string;
  };
  const derived = async (id: string) => {
    const keys: string[] = [];
    for await (const blob of deps.store.list(derivedPrefix(id))) keys.push(blob.key);
    return keys;
  };

  beforeAll(async () => {
    const { pipeline, api } = synthesizeApp({ checks: false });
    askPrefixes = deletablePrefixes(api, 'Ask');
    ingestPrefixes = deletablePrefixes(pipeline, 'Ingest');
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('lets the ask function delete a document ingested from outside uploads/, derived files and all', async () => {
    const id = await ingest('team/report.md');
    expect(await derived(id)).not.toEqual([]);
    await deleteDocument(deps.db, guarded(deps.store, askPrefixes), id);
    expect(await deps.store.head('team/report.md')).toBeUndefined();
    expect(await derived(id)).toEqual([]);
  });

  it('removes a document whose object S3 deleted with the ingest function, which may delete only derived files and attachments', async () => {
    expect(ingestPrefixes).toEqual(['documents/', 'attachments/']);
    const id = await ingest('team/plan.md');
    await deps.store.delete('team/plan.md');
    const result = await removeObject(deps.db, guarded(deps.store, ingestPrefixes), { key: 'team/plan.md' });
    expect(result).toEqual({ outcome: 'deleted', documentId: id });
    expect(await derived(id)).toEqual([]);
    const [doc] = await deps.db.select().from(documents).where(eq(documents.id, id));
    expect(doc?.status).toBe('deleted');
  });
});

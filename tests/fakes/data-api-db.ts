import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { openDataApi } from '#shared/db/data-api.ts';
import { type Database, MIGRATIONS_FOLDER } from '#shared/db/index.ts';
import { type FakeDataApi, type FakeDataApiOptions, startFakeDataApi } from './data-api-server.ts';

export const FAKE_CLUSTER_ARN = 'arn:aws:rds:us-east-1:000000000000:cluster:dropqa-test';
export const FAKE_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:dropqa-test';

/**
 * A fresh in-memory PGlite behind the fake Data API endpoint, opened through the real Data API driver
 * (which applies the migrations over the wire, as the migration function does in AWS).
 */
export async function openDataApiTestDatabase(
  options: Omit<FakeDataApiOptions, 'pglite'> & { migrate?: boolean; resumeDelaysMs?: number[] } = {},
): Promise<Database & { api: FakeDataApi; pglite: PGlite }> {
  const pglite = await PGlite.create({ extensions: { vector, pg_trgm } });
  const api = await startFakeDataApi({ ...options, pglite });
  const database = await openDataApi({
    resourceArn: FAKE_CLUSTER_ARN,
    secretArn: FAKE_SECRET_ARN,
    database: 'postgres',
    region: 'us-east-1',
    endpoint: api.url,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    migrationsFolder: options.migrate === false ? undefined : MIGRATIONS_FOLDER,
    resumeDelaysMs: options.resumeDelaysMs,
  });
  return {
    ...database,
    api,
    pglite,
    async close() {
      await database.close();
      await api.close();
      await pglite.close();
    },
  };
}

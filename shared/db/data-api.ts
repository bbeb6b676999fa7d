import { RDSDataClient } from '@aws-sdk/client-rds-data';
import { drizzle } from 'drizzle-orm/aws-data-api/pg';
import { migrate } from 'drizzle-orm/aws-data-api/pg/migrator';
import type { Database, Db } from './client.ts';
import { retryWhileResuming } from './data-api-resume.ts';
import * as schema from './schema.ts';

export interface DataApiOptions {
  /** The Aurora cluster's ARN. */
  resourceArn: string;
  /** The Secrets Manager secret holding the database credentials. */
  secretArn: string;
  /** The database name inside the cluster. */
  database: string;
  region?: string;
  /** Another endpoint (tests: the local fake). */
  endpoint?: string;
  /** Static credentials (tests); default the SDK's provider chain (the Lambda role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** An existing client instead of one built from the options. */
  client?: RDSDataClient;
  /**
   * Apply the migrations in this folder on open: the migration function does, request handlers do
   * not. (A folder, not the default one beside client.ts: a bundle carries its own copy.)
   */
  migrationsFolder?: string;
  /** Waits between retries while the cluster resumes (tests shorten them). */
  resumeDelaysMs?: number[];
}

/**
 * Opens Aurora PostgreSQL through the RDS Data API (HTTPS, no connection, no VPC): the driver of
 * the Lambda functions. A cluster that scaled to zero answers `DatabaseResumingException` while it
 * wakes up; those calls are retried for up to about a minute.
 *
 * @example
 * const { db } = await openDataApi({ resourceArn, secretArn, database: 'dropqa' });
 */
export async function openDataApi(options: DataApiOptions): Promise<Database> {
  const client =
    options.client ??
    new RDSDataClient({
      region: options.region,
      endpoint: options.endpoint,
      credentials: options.credentials,
    });
  retryWhileResuming(client, options.resumeDelaysMs);
  const db = drizzle(client, {
    schema,
    resourceArn: options.resourceArn,
    secretArn: options.secretArn,
    database: options.database,
  });
  if (options.migrationsFolder) await migrate(db, { migrationsFolder: options.migrationsFolder });
  return {
    db: db as unknown as Db,
    driver: 'data-api',
    close: async () => {
      if (!options.client) client.destroy();
    },
  };
}

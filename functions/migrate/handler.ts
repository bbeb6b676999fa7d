import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { loadConfig } from '#shared/config/load.ts';
import { openDataApi } from '#shared/db/data-api.ts';
import { dataApiOf } from '../lib/env.ts';
import { logger } from '../lib/powertools.ts';

/** The bundle carries a copy of shared/db/migrations beside it (see the house function's bundling). */
const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * The custom resource that applies the database migrations (extensions vector and pg_trgm included)
 * through the Data API whenever a deploy changes them (infra/migrations-hash.ts); already applied
 * migrations are skipped. Deleting the stack leaves the data alone.
 */
export const handler = middy(async (event: CloudFormationCustomResourceEvent) => {
  const physicalResourceId = 'dropqa-schema';
  if (event.RequestType === 'Delete') return { PhysicalResourceId: physicalResourceId };
  const database = await openDataApi({ ...dataApiOf(loadConfig()), migrationsFolder: MIGRATIONS });
  await database.close();
  logger.info('migrations applied');
  return { PhysicalResourceId: physicalResourceId };
}).use(injectLambdaContext(logger));

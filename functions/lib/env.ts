import { z } from 'zod';
import { accessGrantsSchema } from '#shared/access/grants.ts';
import type { Config } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';

/**
 * What the deployment tells a function about resources outside the configuration. The infra
 * construct that grants access to a resource also sets its variable, so a function sees exactly
 * what it may use. (The database comes through the configuration: `database.dataApi`.)
 */
const lambdaEnvSchema = z.object({
  STATE_MACHINE_ARN: z.string().min(1).optional(),
  /** The ingest queue (S3 object events); the ingest function sends an event back to wait there. */
  INGEST_QUEUE_URL: z.string().min(1).optional(),
  /** The most ingestion executions that may run at once (the `pipelineConcurrency` setting). */
  PIPELINE_CONCURRENCY: z.coerce.number().int().positive().optional(),
  /**
   * The ask function's grants (the `accessGrants` setting) as JSON: which collections each Cognito
   * group reads and writes (shared/access/grants.ts). Unset: none, so only `admin` members see anything.
   */
  ACCESS_GRANTS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(accessGrantsSchema),
});
export type LambdaEnv = z.infer<typeof lambdaEnvSchema>;

/** Reads and validates the function's environment; a bad variable is named in the error. */
export function readLambdaEnv(env: Record<string, string | undefined> = process.env): LambdaEnv {
  const parsed = lambdaEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`The function's environment is incomplete: ${problems.join('; ')}`);
}

/**
 * The Aurora cluster the configuration names (`DROPQA_DATABASE__DATA_API__RESOURCE_ARN`,
 * `..._SECRET_ARN`, `..._DATABASE`, set by the database stack's grant): in Lambda there is no other
 * database.
 */
export function dataApiOf(config: Config): NonNullable<Config['database']['dataApi']> {
  const dataApi = config.database.dataApi;
  if (!dataApi)
    throw new ConfigError(
      'database.dataApi is not set: DROPQA_DATABASE__DATA_API__RESOURCE_ARN and DROPQA_DATABASE__DATA_API__SECRET_ARN name the Aurora cluster in Lambda',
    );
  return dataApi;
}

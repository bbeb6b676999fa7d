import { z } from 'zod';
import { ConfigError } from '#shared/errors.ts';

/**
 * What the deployment tells a function about its resources. The infra construct that grants access
 * to a resource also sets its variable, so a function sees exactly what it may use.
 */
const lambdaEnvSchema = z.object({
  DB_CLUSTER_ARN: z.string().min(1),
  DB_SECRET_ARN: z.string().min(1),
  DB_NAME: z.string().min(1),
  STATE_MACHINE_ARN: z.string().min(1).optional(),
});
export type LambdaEnv = z.infer<typeof lambdaEnvSchema>;

/** Reads and validates the function's environment once; a missing variable is named in the error. */
export function readLambdaEnv(env: Record<string, string | undefined> = process.env): LambdaEnv {
  const parsed = lambdaEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const missing = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigError(`The function's environment is incomplete: ${missing.join('; ')}`);
}

import type { App } from 'aws-cdk-lib';
import { z } from 'zod';
import { COLLECTION_NAME } from '#shared/access/collection-name.ts';
import { accessGrantsSchema } from '#shared/access/grants.ts';
import { jsonText } from '#shared/config/json-text.ts';
import {
  DEFAULT_BEDROCK_CHAT_MODEL,
  DEFAULT_BEDROCK_CONDENSE_MODEL,
  TITAN_V2_MODEL,
} from '#shared/llm/provider-settings.ts';

/** Chat roles `roleModels` may put on their own model (`condense` has `condenseModel`). */
export const ROLE_MODEL_ROLES = [
  'answer',
  'decompose',
  'judge',
  'sufficiency',
  'summarize',
  'describeImage',
] as const;

/** `answer=model-a,summarize=model-b` (from `-c`) or an object (from cdk.json). */
const roleModelsSchema = z
  .union([
    z.record(z.string(), z.string()),
    z.string().transform((pairs) =>
      Object.fromEntries(
        pairs
          .split(',')
          .filter(Boolean)
          .map((pair) => {
            const at = pair.indexOf('=');
            return at < 0 ? [pair.trim(), ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
          }),
      ),
    ),
  ])
  .pipe(
    z.partialRecord(z.enum(ROLE_MODEL_ROLES), z.string().min(1, 'a model id'), {
      error: `roles are ${ROLE_MODEL_ROLES.join(', ')} (condense has condenseModel)`,
    }),
  )
  .default({});

/**
 * The deployment's settings, from CDK context (`cdk.json` or `-c key=value`), each with a default
 * so that `cdk synth` works with no account and no configuration.
 */
const settingsSchema = z.object({
  /** Deploy into this region; unset: the CLI's (environment-agnostic templates). */
  region: z.string().optional(),
  /** Deploy into this account (12 digits); unset: the CLI credentials' account at deploy time. */
  account: z.coerce
    .string()
    .regex(/^\d{12}$/, 'a 12-digit AWS account id')
    .optional(),
  /** Prefix of every stack's name. */
  stackPrefix: z.string().default('DropQA'),
  /** `bedrock` (the default in AWS) or `offline` (no model: extractive answers, hashing embeddings). */
  providers: z.enum(['bedrock', 'offline']).default('bedrock'),
  /**
   * The chat model: a Bedrock model id, or an inference profile id (`global.`, `us.`, `eu.`, ...
   * prefixed), which current Claude models are only called through. See docs/aws.md.
   */
  chatModel: z.string().default(DEFAULT_BEDROCK_CHAT_MODEL),
  /**
   * The model that rewrites follow-up questions as standalone ones (role `condense`, one short call
   * per follow-up): the small default even when `chatModel` names a larger one.
   */
  condenseModel: z.string().default(DEFAULT_BEDROCK_CONDENSE_MODEL),
  /**
   * Models of single roles, the others on `chatModel`: e.g. answers from a larger model,
   * `{ "answer": "us.anthropic.claude-sonnet-4-5-20250929-v1:0" }`. Each is granted like `chatModel`.
   */
  roleModels: roleModelsSchema,
  embeddingModel: z.string().default(TITAN_V2_MODEL),
  embeddingDimensions: z.coerce.number().int().min(8).max(4096).default(1024),
  /** A Bedrock rerank model id (`amazon.rerank-v1:0`, `cohere.rerank-v3-5:0`); unset, no reranking. */
  rerankModel: z.string().optional(),
  /** Days CloudWatch keeps the functions' and the state machine's logs. */
  logRetentionDays: z.coerce.number().int().positive().default(30),
  /** Days S3 keeps replaced or deleted versions of documents. */
  noncurrentVersionDays: z.coerce.number().int().positive().default(30),
  /**
   * Origins whose pages may PUT presigned uploads into the bucket (CORS). Default any origin: the
   * presigned URL is the credential (one key under uploads/, minutes long), and the web client on the
   * CloudFront domain must be allowed. Narrow it to `https://<distribution or custom domain>`.
   */
  allowedOrigins: z
    .union([z.array(z.string()), z.string().transform((s) => s.split(',').filter(Boolean))])
    .default(['*']),
  /** Aurora Serverless v2 capacity in ACUs; 0 lets the cluster pause when idle. */
  dbMinCapacity: z.coerce.number().min(0).default(0),
  dbMaxCapacity: z.coerce.number().min(1).default(4),
  /** Minutes without connections before a cluster at 0 ACUs pauses (5 to 1440). */
  dbAutoPauseMinutes: z.coerce.number().int().min(5).max(1440).default(10),
  /** Keep the database and the buckets when the stacks are destroyed. */
  retainData: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
  /** Lifetime of a presigned upload URL (the configuration's lifecycle.presignExpirySeconds). */
  presignExpirySeconds: z.coerce.number().int().min(60).max(604_800).default(900),
  /**
   * Concurrent executions reserved for the ask function, which also caps them (answers and their
   * Bedrock calls at once); 0 (the default) reserves none. Lambda keeps 100 of an account's
   * concurrency unreserved, so reserving n needs a quota of at least n + 100: a new account's quota
   * (often 10) can reserve none, and stack creation would fail.
   */
  askConcurrency: z.coerce.number().int().min(0).default(0),
  /**
   * Questions and summaries one user may ask a minute once their burst is spent (a token bucket per
   * Cognito subject in the database: limits.askRate); 0 turns the per-user limit off.
   */
  askPerMinute: z.coerce.number().min(0).default(2),
  /** Questions one user may ask at once before `askPerMinute` applies. */
  askBurst: z.coerce.number().int().min(1).default(20),
  /**
   * The most ingestion executions that run at once (and so call Bedrock at once: each makes up to 4
   * model calls and runs up to 4 task functions at a time); the others wait in the ingest queue.
   * Needs no reserved concurrency, so any account can deploy it; on an account whose Lambda
   * concurrency quota is 10, keep it at 1 or 2.
   */
  pipelineConcurrency: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * Which collections each Cognito group reads and writes (docs/aws.md "Two teams"), e.g.
   * `{ "hr": { "read": ["hr", "handbook"], "write": ["hr"] } }`; the groups are created in the user
   * pool. Members of `admin` read and write everything; a user in no granting group sees nothing.
   */
  accessGrants: jsonText(accessGrantsSchema).default({}),
  /**
   * Bucket folder -> collection (the configuration's collections.prefixes, docs/collections.md),
   * e.g. `{ "hr/": "hr", "eng/": "engineering" }`; uploads into a chosen collection need none.
   */
  collectionPrefixes: jsonText(
    z.record(z.string().min(1), z.string().regex(COLLECTION_NAME, 'a collection name')),
  ).default({}),
  /** Step Functions stops an execution after this long. */
  executionTimeoutMinutes: z.coerce.number().int().positive().default(60),
});

export type Settings = z.infer<typeof settingsSchema>;

const KEYS = Object.keys(settingsSchema.shape) as (keyof Settings)[];

/** Reads the settings from the app's context; throws naming each bad key. */
export function readSettings(app: App, overrides: Partial<Record<keyof Settings, unknown>> = {}): Settings {
  const raw: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = overrides[key] ?? app.node.tryGetContext(key);
    if (value !== undefined) raw[key] = value;
  }
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
}

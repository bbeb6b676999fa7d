import { z } from 'zod';
import { COLLECTION_NAME } from '../access/collection-name.ts';
import { jsonText } from './json-text.ts';

/** Numbers arrive as strings from the environment; accept both. */
const num = (fallback: number) => z.coerce.number().default(fallback);
const int = (fallback: number) => z.coerce.number().int().default(fallback);
/** `z.coerce.boolean()` treats "false" as true; this does not. */
const bool = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
    .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes')
    .default(fallback);

/** A list from YAML/JSON, or from the environment as one comma-separated string. */
const list = (fallback: string[]) =>
  z
    .union([
      z.array(z.string()),
      z.string().transform((v) =>
        v
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      ),
    ])
    .default(fallback);

const providerKind = z.enum(['offline', 'openai', 'bedrock']);

const roleSettings = z.strictObject({
  /** Model id for this role; falls back to `providers.chat.model`. */
  model: z.string().optional(),
  temperature: num(0.2).pipe(z.number().min(0).max(2)),
  maxTokens: int(1024).pipe(z.number().positive()),
});

const configShape = z.strictObject({
  /** Where the embedded database, the local bucket and caches live. */
  dataDir: z.string().min(1).default('./.dropqa'),
  server: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: int(8787).pipe(z.number().min(0).max(65535)),
      /**
       * The access token every request must carry (docs/security.md). Required when `host` is not a
       * loopback address: if unset there, one is generated at start and printed.
       */
      token: z.string().min(16).optional(),
      /** More host names the server answers to (besides localhost, 127.0.0.1, [::1] and `host`). */
      allowedHosts: z
        .union([z.array(z.string().min(1)), z.string().transform((s) => s.split(',').filter(Boolean))])
        .default([]),
    })
    .prefault({}),
  storage: z
    .strictObject({
      kind: z.enum(['local', 's3']).default('local'),
      /** Local bucket folder; default `<dataDir>/bucket`. */
      dir: z.string().optional(),
      bucket: z.string().optional(),
      region: z.string().default('us-east-1'),
      endpoint: z.url().optional(),
      forcePathStyle: bool(false),
      accessKeyId: z.string().optional(),
      secretAccessKey: z.string().optional(),
    })
    .prefault({})
    .refine((s) => s.kind !== 's3' || !!s.bucket, {
      message: 'storage.bucket is required when storage.kind is s3',
      path: ['bucket'],
    }),
  database: z
    .strictObject({
      /** Any Postgres URL (node-postgres); empty means the embedded PGlite in `<dataDir>/db`. */
      url: z.string().optional(),
      /**
       * Longest a statement may run before it is cancelled (SQLSTATE 57014); 0 means no limit. Index
       * builds at the end of a bulk load are exempt. A Postgres server (`url`) cancels it itself; the
       * embedded PGlite cannot interrupt a statement, so its worker thread is stopped and the database
       * reopened from its folder (docs/security.md). Not with `embedded.worker` false.
       */
      statementTimeoutMs: int(60_000).pipe(z.number().min(0)),
      embedded: z
        .strictObject({
          /**
           * Run the embedded PGlite in a worker thread (default): its statements no longer hold the
           * server's requests, and `statementTimeoutMs` applies. False runs it on the main thread.
           */
          worker: bool(true),
        })
        .prefault({}),
      /**
       * Aurora through the RDS Data API (the AWS deployment sets it); takes precedence over `url`.
       * `DROPQA_DATABASE__DATA_API__RESOURCE_ARN` and friends set it from the environment.
       */
      dataApi: z
        .strictObject({
          resourceArn: z.string().min(1),
          secretArn: z.string().min(1),
          database: z.string().min(1).default('dropqa'),
        })
        .optional(),
    })
    .prefault({}),
  providers: z
    .strictObject({
      chat: z
        .strictObject({
          kind: providerKind.default('offline'),
          model: z.string().optional(),
          baseUrl: z.url().optional(),
          apiKey: z.string().optional(),
          region: z.string().optional(),
          timeoutMs: int(60_000).pipe(z.number().positive()),
          maxConcurrency: int(4).pipe(z.number().positive()),
          maxRetries: int(3).pipe(z.number().min(0)),
        })
        .prefault({}),
      embedder: z
        .strictObject({
          kind: providerKind.default('offline'),
          model: z.string().optional(),
          /** Vector size; the offline hashing embedder uses it as its number of buckets. */
          dimensions: int(256).pipe(z.number().min(8).max(4096)),
          baseUrl: z.url().optional(),
          apiKey: z.string().optional(),
          region: z.string().optional(),
          batchSize: int(64).pipe(z.number().positive()),
          /** Embedding calls in flight at once (Titan embeds one text per call). */
          maxConcurrency: int(8).pipe(z.number().positive()),
        })
        .prefault({}),
      ocr: z
        .strictObject({
          kind: z.enum(['offline', 'textract', 'none']).default('offline'),
          languages: z.string().default('chi_sim+eng'),
          /**
           * OCR text blocks below this confidence (0..1) are left out of the index, with a warning
           * on the version: an unsure reading is mostly garbage.
           */
          minConfidence: z.number().min(0).max(1).default(0.6),
        })
        .prefault({}),
      roles: z
        .strictObject({
          decompose: roleSettings.prefault({}),
          judge: roleSettings.prefault({}),
          sufficiency: roleSettings.prefault({}),
          answer: roleSettings.prefault({}),
          /** Rewrites a follow-up as a standalone question: short and deterministic. */
          condense: roleSettings
            .extend({
              temperature: num(0).pipe(z.number().min(0).max(2)),
              maxTokens: int(300).pipe(z.number().positive()),
            })
            .prefault({}),
          summarize: roleSettings.prefault({}),
          describeImage: roleSettings.prefault({}),
        })
        .prefault({}),
    })
    .prefault({}),
  search: z
    .strictObject({
      topK: int(10).pipe(z.number().min(1).max(200)),
      bm25: z
        .strictObject({
          k1: num(0.9).pipe(z.number().min(0)),
          b: num(0.5).pipe(z.number().min(0).max(1)),
          /** idf raised to this power: above 1, a long query's common words weigh less against its rare ones. */
          idfExponent: num(1.5).pipe(z.number().min(0.5).max(4)),
          /** An occurrence in the title or section path counts this many times in term frequency. */
          titleWeight: num(2).pipe(z.number().min(0).max(10)),
          /**
           * Leaf score x (1 + this x its title coverage: the share of its title and section path's
           * idf weight the question holds, squared) (`withTitleCoverage`, `titleShare`); 0 is plain
           * BM25. 1: domainrag-dev full-text nDCG@10 0.470 -> 0.501, scifact-train and
           * cmrc2018-trial within noise (docs/quality.md, issue 29, ninth and tenth rounds). SQL
           * ranking (a version, topic or category filter; before the in-memory index has loaded)
           * weighs it in on scopes of at most `SQL_TITLE_COVERAGE_LEAVES` leaves only.
           */
          titleCoverage: num(1).pipe(z.number().min(0).max(10)),
          /**
           * The second field of CJK text, its character unigrams and bigrams, scored apart from the
           * words with its own length and these parameters (Anserini's defaults) and summed with
           * them: domainrag-dev full-text nDCG@10 up, docs/quality.md (issue 29, two fields).
           */
          grams: z
            .strictObject({
              k1: num(0.9).pipe(z.number().min(0)),
              b: num(0.4).pipe(z.number().min(0).max(1)),
              idfExponent: num(1).pipe(z.number().min(0.5).max(4)),
              titleWeight: num(1).pipe(z.number().min(0).max(10)),
            })
            .prefault({}),
          /**
           * Score the unfiltered scope from postings held in memory (exact, milliseconds at 50,000
           * paragraphs; loaded in the background from the first search on, which is scored in SQL
           * until the load ends); false scores every search in SQL.
           */
          memoryIndex: bool(true),
        })
        .prefault({}),
      /**
       * Pseudo-relevance feedback (RM3, `expandQuery`): full-text search adds `terms` terms from its
       * best `documents` leaves, the original terms keeping `originalWeight` of the query's weight,
       * and ranks again. `documents: 0` turns it off.
       */
      feedback: z
        .strictObject({
          documents: int(5).pipe(z.number().min(0).max(50)),
          terms: int(20).pipe(z.number().min(0).max(100)),
          originalWeight: num(0.7).pipe(z.number().min(0.05).max(1)),
        })
        .prefault({}),
      /**
       * Hybrid fusion (`fuseScores`): the weight of the normalised cosine similarity against the
       * normalised BM25. Unset, it is taken from `semanticWeightByEmbedder` for the configured
       * embedder kind: defaults measured on the dev sets (docs/quality.md).
       */
      hybrid: z
        .strictObject({
          semanticWeight: z.coerce.number().min(0).max(1).optional(),
          /**
           * A cosine counts in the fusion only above the candidates' mean plus this many standard
           * deviations (`fuseScores`): below, its differences are the embedder's noise for the query.
           */
          cosineFloorZ: num(2).pipe(z.number().min(-10).max(10)),
          semanticWeightByEmbedder: z
            .strictObject({
              // The hashing embedder adds nothing full-text lacks (docs/quality.md): its
              // hits only follow the full-text ones.
              offline: num(0).pipe(z.number().min(0).max(1)),
              openai: num(0.5).pipe(z.number().min(0).max(1)),
              bedrock: num(0.5).pipe(z.number().min(0).max(1)),
            })
            .prefault({}),
        })
        .prefault({}),
      /** Semantic hits below this cosine similarity are dropped from hybrid results. */
      minSemanticScore: num(0.05).pipe(z.number().min(-1).max(1)),
      /** Standard RAG answers directly only when the best hit reaches this relevance. */
      relevanceThreshold: num(0.7).pipe(z.number().min(0).max(1)),
      keywordMaxResults: int(50).pipe(z.number().positive()),
      /**
       * Optional cross-encoder reranking of the fused top `topN` (docs/spec.md#reranking): `bedrock` (Bedrock
       * Rerank; `model` an id such as amazon.rerank-v1:0 or cohere.rerank-v3-5:0, or a full ARN) or
       * `openai` (an OpenAI-compatible server's `/v1/rerank`, `baseUrl` ending in /v1). `none` (the
       * default) leaves results as fused. When set, GET /api/search?rerank=true and every QA flow use it.
       */
      rerank: z
        .strictObject({
          kind: z.enum(['none', 'bedrock', 'openai']).default('none'),
          model: z.string().optional(),
          topN: int(20).pipe(z.number().min(1).max(100)),
          baseUrl: z.url().optional(),
          apiKey: z.string().optional(),
          region: z.string().optional(),
          timeoutMs: int(10_000).pipe(z.number().positive()),
          maxRetries: int(2).pipe(z.number().min(0)),
        })
        .prefault({}),
      hnsw: z
        .strictObject({
          m: int(8).pipe(z.number().min(2).max(100)),
          efConstruction: int(32).pipe(z.number().min(4).max(1000)),
          efSearch: int(64).pipe(z.number().min(1).max(1000)),
        })
        .prefault({}),
    })
    .prefault({}),
  limits: z
    .strictObject({
      /** Files above this size fail their own version with a clear reason. */
      maxFileBytes: int(100 * 1024 * 1024).pipe(z.number().positive()),
      /** A whole multipart upload request. */
      maxUploadBytes: int(512 * 1024 * 1024).pipe(z.number().positive()),
      maxParagraphChars: int(800).pipe(z.number().min(50)),
      paragraphTargetChars: int(400).pipe(z.number().min(20)),
      /** Documents processed at once by the local pipeline runner. */
      pipelineConcurrency: int(2).pipe(z.number().min(1).max(64)),
      /** Office files (zip archives): entries in the central directory. */
      maxZipEntries: int(10_000).pipe(z.number().positive()),
      /** Office files: the sum of the entries' uncompressed sizes. */
      maxUncompressedBytes: int(1024 * 1024 * 1024).pipe(z.number().positive()),
      /** Office files: uncompressed / compressed size of one large entry above which it is a zip bomb. */
      maxCompressionRatio: num(200).pipe(z.number().min(2)),
      maxPages: int(5_000).pipe(z.number().positive()),
      maxSlides: int(2_000).pipe(z.number().positive()),
      /** Spreadsheet rows read per workbook. */
      maxRows: int(2_000_000).pipe(z.number().positive()),
      /** One file's parse (the Parse step) is abandoned with a clear reason after this long. */
      parseTimeoutMs: int(120_000).pipe(z.number().positive()),
      /**
       * Questions and summaries one user may ask (POST /api/qa/ask and /api/qa/summarize): a token
       * bucket per user of `burst` tokens refilled at `perMinute` a minute, kept in the database
       * (shared/api/ask-throttle.ts); past it, 429 with Retry-After. `perMinute` 0 (the local
       * default) turns it off; the AWS deployment sets it (CDK settings askPerMinute, askBurst).
       */
      askRate: z
        .strictObject({
          perMinute: num(0).pipe(z.number().min(0)),
          burst: int(10).pipe(z.number().min(1)),
        })
        .prefault({}),
    })
    .prefault({}),
  structure: z
    .strictObject({
      /** A section without subsections longer than this is split into generated subsections. */
      maxSectionChars: int(6_000).pipe(z.number().min(200)),
      /** Auto-structured documents with more chunks than this get a grouping level above them. */
      maxFlatSections: int(20).pipe(z.number().min(2)),
      /** Give titles like "一、" or "1." a descriptive suffix (numbering kept). */
      enrichTitles: bool(true),
    })
    .prefault({}),
  qa: z
    .strictObject({
      /** Agent-loop iterations before a forced synthesis with low confidence (docs/spec.md#agent-loop). */
      maxIterations: int(5).pipe(z.number().min(1).max(50)),
      /** `native` tool calling, or `json`: one JSON action per turn, for servers without tools. */
      toolProtocol: z.enum(['native', 'json']).default('native'),
      /**
       * How the agent tells a question about one document from one about the corpus
       * (docs/spec.md#routing): `model` asks the chat model when the rules find no named document;
       * `rules` only.
       */
      routing: z.enum(['model', 'rules']).default('model'),
      /** Conversations: tokens of earlier turns (newest first) the answer and the rewrite see. */
      historyTokens: int(1500).pipe(z.number().min(0).max(100_000)),
      twoStage: z
        .strictObject({
          maxSubQueries: int(5).pipe(z.number().min(1).max(5)),
          /** Sub-queries a second stage may add. */
          maxExtraQueries: int(3).pipe(z.number().min(0).max(10)),
          /** Past this, the flow falls back to one retrieval for the question and says so. */
          timeoutMs: int(20_000).pipe(z.number().positive()),
          /** Start the answer while the sufficiency judge runs (discarded if a second stage follows). */
          speculative: bool(true),
        })
        .prefault({}),
      documents: z
        .strictObject({
          /** Documents read whole in Stage 1 (at most 10, docs/spec.md#documents-mode). */
          maxDocuments: int(5).pipe(z.number().min(1).max(10)),
          concurrency: int(4).pipe(z.number().min(1).max(16)),
          /** A document whose Stage 1 takes longer is skipped, with an event. */
          documentTimeoutMs: int(60_000).pipe(z.number().positive()),
        })
        .prefault({}),
    })
    .prefault({}),
  lifecycle: z
    .strictObject({
      /** How often the local bucket folder is scanned for files added or removed behind our back. */
      scanIntervalMs: int(30_000).pipe(z.number().min(1_000)),
      /** At start, a version still processing and untouched for this long is resumed or failed. */
      recoveryIdleMs: int(20 * 60_000).pipe(z.number().min(1_000)),
      /** Lifetime of a presigned upload URL. */
      presignExpirySeconds: int(900).pipe(z.number().min(60).max(604_800)),
    })
    .prefault({}),
  collections: z
    .strictObject({
      /** The collection of a document no rule names, and of every document from before collections. */
      default: z.string().regex(COLLECTION_NAME, 'a collection name: a-z, 0-9, - and _').default('default'),
      /**
       * Key prefix -> collection (`hr/: hr`, `watch/hr-share/: hr` for a watched folder); the longest
       * matching prefix names a new document's collection. Uploads into a chosen collection are
       * stored under `collections/<name>/` (docs/collections.md).
       */
      prefixes: jsonText(
        z.record(
          z.string().min(1),
          z.string().regex(COLLECTION_NAME, 'a collection name: a-z, 0-9, - and _'),
        ),
      ).default({}),
    })
    .prefault({}),
  watch: z
    .strictObject({
      /**
       * Local folders whose files are ingested as they are added, changed, renamed or deleted
       * (`dropqa serve` and `npm start` watch them; `dropqa watch <dir>...` names others). Local only.
       */
      directories: list([]),
      /** File extensions (without the dot) that are ingested; others are ignored. */
      extensions: list(['md', 'markdown', 'txt', 'docx', 'pptx', 'xlsx', 'pdf']),
      /**
       * Glob patterns of files never ingested: a pattern without `/` matches the file name, one with
       * `/` the path inside the folder. The defaults skip Office lock and temp files, editor swap and
       * backup files, partial downloads and hidden files and folders.
       */
      ignore: list([
        '~$*',
        '.~lock*',
        '~*.tmp',
        '*.tmp',
        '*.swp',
        '*.swo',
        '*~',
        '#*#',
        '*.crdownload',
        '*.part',
        '.*',
        '**/.*/**',
        '**/node_modules/**',
      ]),
      /**
       * The quiet period: a file is read once nothing has written to it (or renamed onto it) for this
       * long, so that a copy or save in several writes is read whole; a file written while it is read
       * is read again once quiet.
       */
      debounceMs: int(1_000).pipe(z.number().min(0).max(60_000)),
      /** A deleted file whose bytes reappear under another name within this long is a rename. */
      renameWindowMs: int(1_000).pipe(z.number().min(0).max(60_000)),
      /** Files ingested at once; the rest wait in the queue. */
      concurrency: int(4).pipe(z.number().min(1).max(64)),
    })
    .prefault({}),
  log: z
    .strictObject({
      /** The least severe lines written: `debug` adds one line per pipeline step. */
      level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
      /** `pretty`: `message key=value ...` lines; `json`: one JSON object per line (for a log collector). */
      format: z.enum(['pretty', 'json']).default('pretty'),
    })
    .prefault({}),
  topics: z
    .strictObject({
      /** A new topic joins an existing one at this embedding similarity or above (docs/spec.md#topics). */
      mergeThreshold: num(0.85).pipe(z.number().min(0).max(1)),
      minPerDocument: int(3).pipe(z.number().min(0)),
      maxPerDocument: int(5).pipe(z.number().min(1)),
    })
    .prefault({}),
});

/**
 * The configuration schema: the settings above, with `search.hybrid.semanticWeight` resolved from
 * the embedder kind when it is not set.
 */
export const configSchema = configShape.transform((config) => {
  const { hybrid } = config.search;
  const semanticWeight =
    hybrid.semanticWeight ?? hybrid.semanticWeightByEmbedder[config.providers.embedder.kind];
  return { ...config, search: { ...config.search, hybrid: { ...hybrid, semanticWeight } } };
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
export type ProviderKind = z.infer<typeof providerKind>;
export type Role = keyof Config['providers']['roles'];

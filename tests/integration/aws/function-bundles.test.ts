import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, type JsonWebKey, sign } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { Document, HeadingLevel, Paragraph } from 'docx';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#shared/db/index.ts';
import { TASK_NAMES } from '#shared/pipeline/definition.ts';
import { S3BlobStore } from '#shared/storage/s3.ts';
import { buildApp } from '../../../infra/build-app.ts';
import { type FunctionBundle, functionBundle } from '../../../infra/function-bundles.ts';
import { NATIVE_MODULES_CONTEXT } from '../../../infra/house-function.ts';
import { REPO_ROOT } from '../../../infra/paths.ts';
import { FAKE_CLUSTER_ARN, FAKE_SECRET_ARN, openDataApiTestDatabase } from '../../fakes/data-api-db.ts';
import { type FakeServer, startFake } from '../../fakes/index.ts';
import { deployedDefinition } from '../../unit/infra/synth.ts';
import { docxBytes } from '../../unit/parse/docx-fixtures.ts';
import { BEDROCK } from '../llm/protocols.ts';
import { type S3Server, startS3rver } from '../storage/s3rver.ts';
import { deployedMachine, type TaskHandlers } from './deployed-machine.ts';
import { copyPackages, type LambdaContainer, startContainer } from './lambda-container.ts';

const REPORT_DOCX = await docxBytes(
  new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Budget', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('The cloud migration budget is five million, spent on containers.'),
          new Paragraph({ text: 'Schedule', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Migration starts in March and ends in October.'),
        ],
      },
    ],
  }),
);

/** Source modules only a local process may load, or that belong to other functions. */
const LOCAL_DRIVERS = /node_modules\/(@electric-sql\/|pg\/|tesseract)/;
const PARSERS = /shared\/parse\/(registry|parse-document|xlsx|docx|pptx|pdf)/;

let ask: FunctionBundle;
beforeAll(() => {
  // One esbuild build of every function (a few seconds), as `cdk synth` runs it.
  ask = functionBundle('functions/ask/handler.ts');
});

describe('functionBundle', () => {
  it("loads neither local database drivers nor provider SDKs nor parsers at the ask function's initialization", () => {
    expect(ask.handler).toBe('ask/handler.handler');
    expect(ask.initModules.filter((m) => LOCAL_DRIVERS.test(m))).toEqual([]);
    expect(ask.modules.filter((m) => LOCAL_DRIVERS.test(m))).toEqual([]);
    expect(ask.initModules.filter((m) => /openai|client-bedrock-runtime|client-textract/.test(m))).toEqual(
      [],
    );
    // The configured provider's SDK is a chunk of its own, loaded on the first call.
    expect(ask.modules.some((m) => m.includes('client-bedrock-runtime'))).toBe(true);
    expect(ask.modules.filter((m) => PARSERS.test(m))).toEqual([]);
    expect(ask.initBytes).toBeLessThan(3 * 1024 * 1024);
    // Nothing left out of the bundle is imported at initialization (the runtime would not find it).
    expect(ask.initExternals).toEqual([]);
  });

  it('keeps the parsers out of the steps that only register, activate or fail a version', () => {
    for (const entry of [
      'functions/ingest/register.ts',
      'functions/ingest/activate.ts',
      'functions/ingest/mark-failed.ts',
    ] as const) {
      expect(
        functionBundle(entry).modules.filter((m) => PARSERS.test(m)),
        entry,
      ).toEqual([]);
    }
    expect(functionBundle('functions/parse/handler.ts').initModules).toContain('shared/parse/registry.ts');
  });

  it("gives the parse function pdf.js's fonts and CMaps, found from its code as pdf.js finds them", () => {
    const parse = functionBundle('functions/parse/handler.ts');
    // Outside the repository, as in Lambda: only the function's own node_modules can answer.
    const copy = mkdtempSync(join(tmpdir(), 'dropqa-parse-'));
    cpSync(parse.dir, copy, { recursive: true });
    const script = `const { createRequire } = await import('node:module');
      const { dirname, join } = await import('node:path'); const { existsSync } = await import('node:fs');
      const root = dirname(createRequire(${JSON.stringify(join(copy, 'chunks', 'x.mjs'))}).resolve('pdfjs-dist/package.json'));
      console.log(['standard_fonts/FoxitSerif.pfb', 'cmaps/UniGB-UCS2-H.bcmap', 'wasm'].every((f) => existsSync(join(root, f))));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    rmSync(copy, { recursive: true, force: true });
    expect(result.stdout.trim(), result.stderr).toBe('true');
    expect(ask.modules).not.toContain('shared/parse/pdf/pdfjs.ts');
    expect(existsSync(join(ask.dir, 'node_modules', 'pdfjs-dist'))).toBe(false);
  });

  it("puts the migrations beside the migration function's module", () => {
    const migrate = functionBundle('functions/migrate/handler.ts', { withMigrations: true });
    expect(existsSync(join(migrate.dir, 'migrate', 'migrations', '0000_extensions.sql'))).toBe(true);
    expect(existsSync(join(migrate.dir, 'migrate', 'handler.mjs'))).toBe(true);
  });

  it('initializes the ask function in Node from a copy of its folder alone (Data API, S3 and Bedrock configured)', () => {
    // Outside the repository, as in Lambda: no node_modules above it to fall back on.
    const copy = mkdtempSync(join(tmpdir(), 'dropqa-ask-'));
    cpSync(ask.dir, copy, { recursive: true });
    const module = join(copy, 'ask', 'handler.mjs');
    const script = `globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };
      const { handler } = await import(${JSON.stringify(module)}); console.log(typeof handler);`;
    const result = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        DROPQA_DATABASE__DATA_API__RESOURCE_ARN: 'arn:aws:rds:us-east-1:000000000000:cluster:test',
        DROPQA_DATABASE__DATA_API__SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:test',
        DROPQA_STORAGE__KIND: 's3',
        DROPQA_BUCKET: 'test',
        DROPQA_PROVIDERS__CHAT__KIND: 'bedrock',
        DROPQA_PROVIDERS__EMBEDDER__KIND: 'bedrock',
        DROPQA_PROVIDERS__OCR__KIND: 'textract',
        DROPQA_DATA_DIR: join(copy, 'data'),
        STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:test',
        USER_POOL_ID: 'us-east-1_test',
        USER_POOL_CLIENT_ID: 'test',
      },
    });
    rmSync(copy, { recursive: true, force: true });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('function');
  });
});

// ---------------------------------------------------------------------------------------------
// The functions as shipped: each one's package taken out of a bundling `cdk synth`, run in a Node
// process of its own against the local fakes (one build: these share the bundle cache with the
// tests above, so they live in the same file).

const BUCKET = 'dropqa-documents-test';
const POOL = 'us-east-1_DropQaTest';
const CLIENT = 'web-client-id';
const STATE_MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:DropQAIngestion';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const JWKS = JSON.stringify({
  keys: [
    { ...(keys.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'key-1', alg: 'RS256', use: 'sig' },
  ],
});
const prompt = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8').trim();

/** A Cognito ID token for the pool, signed with the key the JWKS publishes. */
function idToken(): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = {
    sub: 'user-1',
    email: 'user@example.com',
    iss: `https://cognito-idp.us-east-1.amazonaws.com/${POOL}`,
    aud: CLIENT,
    token_use: 'id',
    exp: Math.floor(Date.now() / 1000) + 600,
  };
  const unsigned = `${part({ alg: 'RS256', kid: 'key-1' })}.${part(claims)}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), keys.privateKey).toString('base64url')}`;
}

/** A Function URL request (payload 2.0), as CloudFront's origin request reaches the ask function. */
function urlEvent(method: string, path: string, body?: unknown) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {
      host: 'abc.lambda-url.us-east-1.on.aws',
      'content-type': 'application/json',
      'x-dropqa-token': idToken(),
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc',
      domainName: 'abc.lambda-url.us-east-1.on.aws',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      requestId: 'request-1',
      routeKey: '$default',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    isBase64Encoded: false,
  };
}

describe('the synthesized functions, run from their cdk.out packages against the local fakes', () => {
  let root: string;
  let templates: { database: Template; pipeline: Template; api: Template };
  let outdir: string;
  let database: Awaited<ReturnType<typeof openDataApiTestDatabase>>;
  let bedrock: FakeServer;
  let s3: S3Server;
  let store: S3BlobStore;
  const containers = new Map<string, Promise<LambdaContainer>>();

  /**
   * The warm container of the function `id` of a stack: its package copied out of cdk.out (as Lambda
   * unzips it), its handler and environment from the template, the variables that name other
   * resources pointed at the fakes.
   */
  const container = (stack: keyof typeof templates, id: string) => {
    const key = `${stack}/${id}`;
    let started = containers.get(key);
    if (!started) {
      const [, fn] =
        Object.entries(templates[stack].findResources('AWS::Lambda::Function')).find(([name]) =>
          new RegExp(`^${id}[0-9A-F]{8}$`).test(name),
        ) ?? [];
      if (!fn) throw new Error(`no function ${id} in ${stack}`);
      const dir = join(root, 'task', id);
      cpSync(join(outdir, fn.Metadata['aws:asset:path']), dir, { recursive: true });
      started = startContainer(
        dir,
        fn.Properties.Handler,
        environment(fn.Properties.Environment?.Variables ?? {}),
      );
      containers.set(key, started);
    }
    return started;
  };
  const environment = (variables: Record<string, unknown>): Record<string, string> => {
    const resolved: Record<string, string> = {
      DROPQA_DATABASE__DATA_API__RESOURCE_ARN: FAKE_CLUSTER_ARN,
      DROPQA_DATABASE__DATA_API__SECRET_ARN: FAKE_SECRET_ARN,
      DROPQA_BUCKET: BUCKET,
      STATE_MACHINE_ARN: STATE_MACHINE,
      USER_POOL_ID: POOL,
      USER_POOL_CLIENT_ID: CLIENT,
    };
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(variables)) {
      const actual = typeof value === 'string' ? value : resolved[name];
      if (actual === undefined)
        throw new Error(`${name} refers to a resource the test does not stand in for`);
      env[name] = actual;
    }
    return {
      ...env,
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      // Where the SDK clients go instead of AWS: the service-specific endpoint variable for the Data
      // API, the configuration's own endpoint settings for S3 and Bedrock.
      AWS_ENDPOINT_URL_RDS_DATA: database.api.url,
      DROPQA_STORAGE__ENDPOINT: s3.endpoint,
      DROPQA_STORAGE__FORCE_PATH_STYLE: 'true',
      DROPQA_PROVIDERS__CHAT__BASE_URL: bedrock.url,
      DROPQA_PROVIDERS__EMBEDDER__BASE_URL: bedrock.url,
      DROPQA_DATA_DIR: join(root, 'tmp'),
      TEST_JWKS: JWKS,
    };
  };
  const handlers = (): TaskHandlers =>
    Object.fromEntries(
      TASK_NAMES.map((task) => [
        task,
        async (input: unknown) => (await container('pipeline', task)).invoke(input),
      ]),
    ) as TaskHandlers;
  const ask = async (method: string, path: string, body?: unknown) =>
    (await container('api', 'Ask')).invokeStreaming(urlEvent(method, path, body));

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dropqa-bundled-'));
    outdir = join(root, 'cdk.out');
    // This machine's builds of jieba and sharp stand in for the linux-arm64 ones Lambda gets.
    const native = copyPackages(REPO_ROOT, ['@node-rs/jieba', 'sharp'], join(root, 'native'));
    const built = buildApp(
      {
        outdir,
        context: { [NATIVE_MODULES_CONTEXT]: native, 'aws:cdk:enable-asset-metadata': true },
      },
      {},
      { checks: false },
    );
    built.app.synth();
    templates = {
      database: Template.fromStack(built.database),
      pipeline: Template.fromStack(built.pipeline),
      api: Template.fromStack(built.api),
    };
    database = await openDataApiTestDatabase({ migrate: false });
    bedrock = await startFake('bedrock');
    s3 = await startS3rver([BUCKET]);
    store = new S3BlobStore({
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
  }, 600_000);
  afterAll(async () => {
    for (const started of containers.values()) await (await started.catch(() => undefined))?.stop();
    await bedrock?.stop();
    await s3?.close();
    await database?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('applies the migrations with the Migrate function (its migrations packaged beside it)', async () => {
    const migrate = await container('database', 'Migrate');
    const result = await migrate.invoke({ RequestType: 'Create', ResourceProperties: {} });
    expect(result).toEqual({ PhysicalResourceId: 'dropqa-schema' });
    const rows = await queryRows<{ extname: string }>(
      database.db,
      sql`SELECT extname FROM pg_extension WHERE extname IN ('vector', 'pg_trgm') ORDER BY extname`,
    );
    expect(rows.map((r) => r.extname)).toEqual(['pg_trgm', 'vector']);
  }, 120_000);

  it('ingests a .docx through the deployed definition: Register, Parse, Summarize, Topics, Activate', async () => {
    await store.put('team/report.docx', REPORT_DOCX);
    const summary = {
      summary: 'The report sets the cloud migration budget and schedule.',
      contexts: [{ id: 1, context: 'From the quarterly report.' }],
      topics: [{ name: 'Cloud migration', description: 'Moving to the cloud.', relevance: 0.9 }],
    };
    bedrock.enqueue('chat', ...Array.from({ length: 8 }, () => BEDROCK.structuredReply(summary)));
    const machine = deployedMachine(deployedDefinition(templates.pipeline), handlers());
    const output = await machine.run({ key: 'team/report.docx' });
    expect(output).toMatchObject({ outcome: 'ready', version: 1 });
    const [doc] = await queryRows<{ id: string; status: string; summary: string | null }>(
      database.db,
      sql`SELECT d.id, d.status, n.summary FROM documents d
          JOIN nodes n ON n.document_id = d.id AND n.node_type = 'document'
          WHERE d.key = 'team/report.docx'`,
    );
    expect(doc).toMatchObject({ status: 'ready', summary: summary.summary });
    // The prompts came out of the packages: the model was sent the files' texts.
    const systems = bedrock.recorded('converse').map((r) => BEDROCK.system(r.body));
    expect(systems).toContain(prompt('shared/enrich/prompts/summarize-system.md'));
    const [vectors] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM embeddings e JOIN nodes n ON n.id = e.node_id
          WHERE n.document_id = ${doc?.id}::uuid AND e.dimensions = 1024`,
    );
    expect(vectors?.n).toBeGreaterThan(0);
  }, 300_000);

  it('answers a question over Server-Sent Events through the bundled Hono app', async () => {
    bedrock.reset();
    bedrock.enqueue('chat', { text: 'The cloud migration budget is five million [1].' });
    const response = await ask('POST', '/api/qa/ask', {
      question: 'What is the cloud budget?',
      mode: 'standard',
    });
    expect(response.metadata.statusCode).toBe(200);
    expect(response.metadata.headers['content-type']).toMatch(/text\/event-stream/);
    const events = [...response.body.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toContain('delta');
    expect(events).toContain('references');
    expect(events.at(-1)).toBe('done');
    expect(response.body).toContain('five million');
    const systems = bedrock.recorded('converse-stream').map((r) => BEDROCK.system(r.body));
    expect(systems).toContain(prompt('shared/qa/prompts/answer-system.md'));
  }, 120_000);

  it('deletes the document stored outside uploads/: its original and derived files leave the bucket', async () => {
    const [doc] = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM documents WHERE key = 'team/report.docx'`,
    );
    const derived = async () => {
      const found: string[] = [];
      for await (const blob of store.list(`documents/${doc?.id}/`)) found.push(blob.key);
      return found;
    };
    expect(await derived()).not.toEqual([]);
    const response = await ask('DELETE', `/api/documents/${doc?.id}`);
    expect(response.metadata.statusCode, response.body).toBeLessThan(300);
    expect(await store.head('team/report.docx')).toBeUndefined();
    expect(await derived()).toEqual([]);
  }, 120_000);
});

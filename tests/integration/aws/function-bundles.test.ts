import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, HeadingLevel, ImageRun, Paragraph } from 'docx';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '#shared/db/index.ts';
import { type FunctionBundle, functionBundle } from '../../../infra/function-bundles.ts';
import { REPO_ROOT } from '../../../infra/paths.ts';
import { docxBytes } from '../../unit/parse/docx-fixtures.ts';
import { BEDROCK } from '../llm/protocols.ts';
import { type BundledApp, startBundledApp } from './bundled-app.ts';
import { grantsReport } from './iam/grants-report.ts';
import { describeDenial } from './iam/role-simulation.ts';
import { objectCreatedEvent, objectDeletedEvent } from './s3-events.ts';

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
// tests above, so they live in the same file). IAM by simulation: after each test, every AWS call
// its functions made (recorded at the fakes) is evaluated against the caller's role in the
// synthesized template; one not allowed fails the test, naming the function, action and resource.

const prompt = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8').trim();
const eventsOf = (body: string) => [...body.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
const CHART_PNG = new Uint8Array(
  await sharp({ create: { width: 160, height: 90, channels: 3, background: '#2a6f97' } })
    .png()
    .toBuffer(),
);
const FIGURES_DOCX = await docxBytes(
  new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Revenue', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Revenue by quarter, as the chart shows.'),
          new Paragraph({
            children: [
              new ImageRun({
                type: 'png',
                data: CHART_PNG,
                transformation: { width: 160, height: 90 },
                altText: { name: 'Revenue chart', title: 'Revenue chart', description: 'Revenue chart' },
              }),
            ],
          }),
        ],
      },
    ],
  }),
);

describe('the synthesized functions, run from their cdk.out packages against the local fakes', () => {
  let app: BundledApp;
  const documentId = async (key: string) =>
    (await queryRows<{ id: string }>(app.database.db, sql`SELECT id FROM documents WHERE key = ${key}`))[0]
      ?.id ?? '';
  const versions = async (key: string) =>
    queryRows<{ version: number; status: string; error: string | null }>(
      app.database.db,
      sql`SELECT v.version, v.status, v.error FROM document_versions v JOIN documents d ON d.id = v.document_id
          WHERE d.key = ${key} ORDER BY v.version`,
    );
  const derived = async (id: string) => {
    const found: string[] = [];
    for await (const blob of app.store.list(`documents/${id}/`)) found.push(blob.key);
    return found;
  };
  /** The end of the ask function's log, for failure messages. */
  const askLogs = async () => (await app.logs('Ask')).slice(-4000);
  /** An S3 event as the deployed app delivers it: EventBridge -> the ingest queue -> a batch of one. */
  const ingestEvent = async (event: unknown) => {
    const batch = {
      Records: [{ messageId: 'message-1', receiptHandle: 'handle-1', body: JSON.stringify(event) }],
    };
    const result = await (await app.container('Ingest')).invoke(batch);
    return { result, executions: await app.executions() };
  };

  beforeAll(async () => {
    // A reranker configured too, so that Bedrock Rerank is called and checked like the models.
    app = await startBundledApp({ rerankModel: 'amazon.rerank-v1:0' });
  }, 600_000);
  afterAll(() => app?.stop());
  afterEach(async () => {
    // Replies a test queued and its flow did not take are not another test's.
    app.bedrock.script.clear();
    expect((await app.checkCalls()).map(describeDenial)).toEqual([]);
  });

  it('applies the migrations with the Migrate function (its migrations packaged beside it)', async () => {
    const migrate = await app.container('Migrate');
    const result = await migrate.invoke({ RequestType: 'Create', ResourceProperties: {} });
    expect(result).toEqual({ PhysicalResourceId: 'dropqa-schema' });
    const rows = await queryRows<{ extname: string }>(
      app.database.db,
      sql`SELECT extname FROM pg_extension WHERE extname IN ('vector', 'pg_trgm') ORDER BY extname`,
    );
    expect(rows.map((r) => r.extname)).toEqual(['pg_trgm', 'vector']);
  }, 120_000);

  it('ingests a .docx through the deployed definition: Register, Parse, Summarize, Topics, Activate', async () => {
    await app.store.put('team/report.docx', REPORT_DOCX);
    const summary = {
      summary: 'The report sets the cloud migration budget and schedule.',
      contexts: [{ id: 1, context: 'From the quarterly report.' }],
      topics: [{ name: 'Cloud migration', description: 'Moving to the cloud.', relevance: 0.9 }],
    };
    app.bedrock.enqueue('chat', ...Array.from({ length: 8 }, () => BEDROCK.structuredReply(summary)));
    const output = await app.machine.run({ key: 'team/report.docx' });
    expect(output).toMatchObject({ outcome: 'ready', version: 1 });
    const [doc] = await queryRows<{ id: string; status: string; summary: string | null }>(
      app.database.db,
      sql`SELECT d.id, d.status, n.summary FROM documents d
          JOIN nodes n ON n.document_id = d.id AND n.node_type = 'document'
          WHERE d.key = 'team/report.docx'`,
    );
    expect(doc).toMatchObject({ status: 'ready', summary: summary.summary });
    // The prompts came out of the packages: the model was sent the files' texts.
    const systems = app.bedrock.recorded('converse').map((r) => BEDROCK.system(r.body));
    expect(systems).toContain(prompt('shared/enrich/prompts/summarize-system.md'));
    const [vectors] = await queryRows<{ n: number }>(
      app.database.db,
      sql`SELECT count(*)::int AS n FROM embeddings e JOIN nodes n ON n.id = e.node_id
          WHERE n.document_id = ${doc?.id}::uuid AND e.dimensions = 1024`,
    );
    expect(vectors?.n).toBeGreaterThan(0);
  }, 300_000);

  it('answers a question over Server-Sent Events through the bundled Hono app', async () => {
    app.bedrock.enqueue('chat', { text: 'The cloud migration budget is five million [1].' });
    const response = await app.ask({
      method: 'POST',
      path: '/api/qa/ask',
      body: { question: 'What is the cloud budget?', mode: 'standard' },
    });
    expect(response.metadata.statusCode).toBe(200);
    expect(response.metadata.headers['content-type']).toMatch(/text\/event-stream/);
    const events = eventsOf(response.body);
    expect(events).toContain('delta');
    expect(events).toContain('references');
    expect(events.at(-1)).toBe('done');
    expect(response.body).toContain('five million');
    const systems = app.bedrock.recorded('converse-stream').map((r) => BEDROCK.system(r.body));
    expect(systems).toContain(prompt('shared/qa/prompts/answer-system.md'));
  }, 120_000);

  it('ingests an uploaded .docx from its Object Created event: the Ingest function starts the execution, its image is read by Textract and described', async () => {
    await app.store.put('team/figures.docx', FIGURES_DOCX);
    const { result, executions } = await ingestEvent(
      objectCreatedEvent('team/figures.docx', '0062E9A4B1C3D2E100'),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(executions).toEqual([{ output: expect.objectContaining({ outcome: 'ready', version: 1 }) }]);
    const [image] = await queryRows<{ ocr_text: string | null; filename: string }>(
      app.database.db,
      sql`SELECT i.ocr_text, i.filename FROM images i JOIN nodes n ON n.id = i.node_id
          JOIN documents d ON d.id = n.document_id WHERE d.key = 'team/figures.docx'`,
    );
    expect(image?.ocr_text).toContain('Revenue grew');
    expect(app.bedrock.recorded('converse').some((r) => BEDROCK.images(r.body).length > 0)).toBe(true);
  }, 300_000);

  it('serves a document image from the bucket through the ask function', async () => {
    const id = await documentId('team/figures.docx');
    const [image] = await queryRows<{ filename: string }>(
      app.database.db,
      sql`SELECT i.filename FROM images i JOIN nodes n ON n.id = i.node_id WHERE n.document_id = ${id}::uuid`,
    );
    const response = await app.ask({
      method: 'GET',
      path: `/api/v1/documents/${id}/images/${image?.filename}`,
    });
    expect(response.metadata.statusCode, `${response.body}\n${await askLogs()}`).toBe(200);
    expect(response.metadata.headers['content-type']).toBe('image/png');
  }, 120_000);

  it.each(['auto', 'agent', 'two-stage', 'documents'])(
    'answers in %s mode',
    async (mode) => {
      const response = await app.ask({
        method: 'POST',
        path: '/api/qa/ask',
        body: { question: 'How much is the cloud migration budget and when does it end?', mode },
      });
      expect(response.metadata.statusCode).toBe(200);
      expect(eventsOf(response.body).at(-1), `${response.body}\n${await askLogs()}`).toBe('done');
      expect(app.bedrock.requests.length).toBeGreaterThan(0);
    },
    120_000,
  );

  it('answers a follow-up inside a conversation (the question condensed by the model first)', async () => {
    const first = await app.ask({
      method: 'POST',
      path: '/api/qa/ask',
      body: { question: 'What is the cloud migration budget?', mode: 'standard' },
    });
    const conversation = /"conversation_id":"([^"]+)"/.exec(first.body)?.[1];
    expect(conversation).toBeDefined();
    app.bedrock.enqueue(
      'chat',
      BEDROCK.structuredReply({ standalone_question: 'When does the cloud migration end?', from_turns: [1] }),
    );
    const response = await app.ask({
      method: 'POST',
      path: '/api/qa/ask',
      body: { question: 'And when does it end?', mode: 'standard', conversation_id: conversation },
    });
    expect(eventsOf(response.body)).toContain('rewrite');
    expect(eventsOf(response.body).at(-1), response.body).toBe('done');
  }, 120_000);

  it('summarizes a document and lists, shows and searches documents', async () => {
    const id = await documentId('team/report.docx');
    const summary = await app.ask({ method: 'POST', path: '/api/qa/summarize', body: { document_id: id } });
    expect(eventsOf(summary.body).at(-1), summary.body).toBe('done');
    for (const path of [
      '/api/documents',
      `/api/documents/${id}`,
      `/api/documents/${id}/structure`,
      '/api/topics',
    ]) {
      const response = await app.ask({ method: 'GET', path });
      expect(response.metadata.statusCode, `${path}: ${response.body}`).toBe(200);
    }
    const search = await app.ask({
      method: 'GET',
      path: '/api/search',
      query: { q: 'migration budget', rerank: 'true' },
    });
    expect(search.metadata.statusCode, search.body).toBe(200);
    expect(app.bedrock.recorded('rerank').length).toBeGreaterThan(0);
  }, 120_000);

  it('reindexes a document through the ask function: an unchanged result is discarded by Activate', async () => {
    const id = await documentId('team/report.docx');
    const response = await app.ask({ method: 'POST', path: `/api/documents/${id}/reindex` });
    expect(response.metadata.statusCode, response.body).toBe(202);
    expect(await app.executions()).toEqual([
      { output: expect.objectContaining({ outcome: 'unchanged', version: 1 }) },
    ]);
    // The discarded version's files went with it.
    expect((await derived(id)).filter((key) => key.includes('/v2/'))).toEqual([]);
  }, 300_000);

  it('marks a version failed after Parse and removes what it wrote (MarkFailed)', async () => {
    await app.store.put('team/notes.md', '# Notes\n\nThe migration needs two more engineers.\n');
    // Every model call fails as a request the service refuses (not retried): Summarize fails.
    app.bedrock.enqueue(
      'chat',
      ...Array.from({ length: 40 }, () => ({ error: { status: 400, type: 'ValidationException' } })),
    );
    const { executions } = await ingestEvent(objectCreatedEvent('team/notes.md', '0062E9A4B1C3D2E101'));
    app.bedrock.script.clear();
    expect(executions).toHaveLength(1);
    expect(executions[0]?.error).toBeDefined();
    expect(await versions('team/notes.md')).toEqual([
      expect.objectContaining({ version: 1, status: 'failed' }),
    ]);
    expect(await derived(await documentId('team/notes.md'))).toEqual([]);
  }, 300_000);

  it('marks the version of an execution that timed out failed, from its status event (the ExecutionEnded function)', async () => {
    await app.store.put('team/slow.md', '# Slow\n\nThe review takes a week.\n');
    // The execution got as far as Parse, then its time ran out: nothing recorded the failure.
    const register = await (await app.container('Register')).invoke<{ documentId: string; version: number }>({
      key: 'team/slow.md',
    });
    await (await app.container('Parse')).invoke({
      documentId: register.documentId,
      version: register.version,
    });
    expect(await derived(register.documentId)).not.toEqual([]);
    const executionArn = `${app.stateMachineArn.replace(':stateMachine:', ':execution:')}:slow`;
    app.history(executionArn, [
      {
        type: 'TaskStateExited',
        stateExitedEventDetails: {
          name: 'Register',
          output: JSON.stringify({ key: 'team/slow.md', register }),
        },
      },
    ]);
    const result = await (await app.container('ExecutionEnded')).invoke({
      source: 'aws.states',
      'detail-type': 'Step Functions Execution Status Change',
      detail: {
        executionArn,
        stateMachineArn: app.stateMachineArn,
        status: 'TIMED_OUT',
        input: JSON.stringify({ key: 'team/slow.md' }),
      },
    });
    expect(result).toMatchObject({ recorded: true, version: 1 });
    expect(await versions('team/slow.md')).toEqual([
      expect.objectContaining({ version: 1, status: 'failed' }),
    ]);
    expect(await derived(register.documentId)).toEqual([]);
  }, 300_000);

  it('marks a corrupt file failed', async () => {
    await app.store.put('team/broken.docx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8]));
    const { executions } = await ingestEvent(objectCreatedEvent('team/broken.docx', '0062E9A4B1C3D2E102'));
    expect(executions[0]?.error).toBeDefined();
    const [doc] = await queryRows<{ status: string }>(
      app.database.db,
      sql`SELECT status FROM documents WHERE key = 'team/broken.docx'`,
    );
    expect(doc?.status).toBe('failed');
  }, 300_000);

  it('hands out a presigned upload URL that the ask function may sign, and takes a direct upload', async () => {
    const bytes = new TextEncoder().encode('# Plan\n\nShip in May.\n');
    const signed = await app.ask({
      method: 'POST',
      path: '/api/documents/upload-url',
      body: { filename: 'plan.md', size: bytes.length, content_type: 'text/markdown' },
    });
    expect(signed.metadata.statusCode, signed.body).toBe(200);
    const { url, headers } = JSON.parse(signed.body) as { url: string; headers: Record<string, string> };
    // The browser's PUT, signed with the ask function's credentials: authorized against its role.
    const put = await fetch(url, { method: 'PUT', headers, body: bytes });
    expect(put.status, await put.text()).toBe(200);
    // Into a chosen collection: stored under collections/<name>/, which the role must allow too.
    const intoHr = await app.ask({
      method: 'POST',
      path: '/api/documents/upload-url',
      body: { filename: 'pay.md', size: bytes.length, content_type: 'text/markdown', collection: 'hr' },
    });
    expect(intoHr.metadata.statusCode, intoHr.body).toBe(200);
    const hr = JSON.parse(intoHr.body) as { url: string; key: string; headers: Record<string, string> };
    expect(hr.key).toMatch(/^collections\/hr\//);
    const putHr = await fetch(hr.url, { method: 'PUT', headers: hr.headers, body: bytes });
    expect(putHr.status, await putHr.text()).toBe(200);
    const boundary = 'dropqa-boundary';
    const multipart = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="memo.md"\r\nContent-Type: text/markdown\r\n\r\n# Memo\n\nHello.\n\r\n--${boundary}--\r\n`,
    );
    const uploaded = await app.ask({
      method: 'POST',
      path: '/api/documents/upload',
      body: multipart,
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(uploaded.metadata.statusCode, uploaded.body).toBe(200);
  }, 120_000);

  it('removes a document whose object was deleted, from its Object Deleted event (the Ingest function)', async () => {
    const id = await documentId('team/figures.docx');
    expect(await derived(id)).not.toEqual([]);
    await app.store.delete('team/figures.docx');
    const { result } = await ingestEvent(objectDeletedEvent('team/figures.docx', '0062E9A4B1C3D2E1FF'));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(await derived(id)).toEqual([]);
  }, 120_000);

  it('deletes the document stored outside uploads/: its original and derived files leave the bucket', async () => {
    const id = await documentId('team/report.docx');
    expect(await derived(id)).not.toEqual([]);
    const response = await app.ask({ method: 'DELETE', path: `/api/documents/${id}` });
    expect(response.metadata.statusCode, response.body).toBeLessThan(300);
    expect(await app.store.head('team/report.docx')).toBeUndefined();
    expect(await derived(id)).toEqual([]);
  }, 120_000);

  it('reports what each function called, and gives no function an S3 grant it does not use', async () => {
    await app.checkCalls();
    const report = grantsReport(app);
    console.info(report.text);
    // Every function ran and made calls; the ones that discard versions deleted objects.
    for (const id of app.functionIds) expect(report.classes[id], id).not.toEqual([]);
    for (const id of ['Activate', 'MarkFailed', 'ExecutionEnded'])
      expect(
        report.classes[id]?.some((c) => c.startsWith('s3:DeleteObject')),
        id,
      ).toBe(true);
    // Least privilege for the bucket: an S3 grant no scenario used is a grant too many, unless the
    // path that needs it is named here.
    const unexplained = Object.entries(report.unused).flatMap(([id, grants]) =>
      grants
        .filter((g) => g.startsWith('s3:') && !UNEXERCISED[id]?.some((u) => u.grant.test(g)))
        .map((g) => `${id}: ${g}`),
    );
    expect(unexplained).toEqual([]);
  });
});

/** S3 grants the scenarios above do not exercise, by function, each with the path that needs it. */
const UNEXERCISED: Record<string, { grant: RegExp; reason: string }[]> = {
  Parse: [
    {
      grant: /^s3:(PutObject|DeleteObject) on .*\/(attachments|documents)\/\*$|^s3:ListBucket /,
      reason:
        "an e-mail's attachments are written as objects of their own; those an earlier version had are listed and removed, with their documents' derived files",
    },
  ],
  Ingest: [
    {
      grant: /^s3:DeleteObject on .*\/attachments\/\*$/,
      reason: "a removed e-mail's attachments go with it",
    },
  ],
  Register: [
    {
      grant: /^s3:ListBucket /,
      reason: 'a read of an object already deleted answers NoSuchKey, not AccessDenied',
    },
  ],
  DescribeImage: [
    {
      grant: /^s3:ListBucket /,
      reason: 'a read of an image already deleted answers NoSuchKey, not AccessDenied',
    },
  ],
};

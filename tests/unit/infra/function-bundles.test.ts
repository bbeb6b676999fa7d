import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FunctionBundle, functionBundle } from '../../../infra/function-bundles.ts';

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

/**
 * The AWS deployment's numbers: each function's bundle (esbuild, as the house function construct
 * bundles it), the ask function's module initialization in Node, and `cdk synth` (bundling included).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

type Row = { metric: string; value: string; target: string };

const ROOT = join(import.meta.dirname, '..');
/** Inside the repository so that the externals (@aws-sdk, jieba) resolve from node_modules. */
const OUT = join(ROOT, 'node_modules', '.cache', 'dropqa-bench-bundles');

const ENTRIES: Record<string, string> = {
  ask: 'functions/ask/handler.ts',
  ingest: 'functions/ingest/events.ts',
  register: 'functions/ingest/register.ts',
  parse: 'functions/parse/handler.ts',
  images: 'functions/images/handler.ts',
  summarize: 'functions/summarize/handler.ts',
  topics: 'functions/topics/handler.ts',
  activate: 'functions/ingest/activate.ts',
  'mark-failed': 'functions/ingest/mark-failed.ts',
  migrate: 'functions/migrate/handler.ts',
};

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** Bundles one entry with the house construct's settings; returns the minified size in bytes. */
async function bundle(name: string, entry: string): Promise<number> {
  const outfile = join(OUT, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    mainFields: ['module', 'main'],
    banner: {
      js: "import { createRequire as __cr } from 'node:module';const require = __cr(import.meta.url);",
    },
    external: ['@aws-sdk/*', '@node-rs/jieba'],
    logLevel: 'error',
  });
  return statSync(outfile).size;
}

/** Imports the ask bundle in a fresh Node process, as Lambda's init phase does; milliseconds. */
function askInitMs(): number {
  // The Lambda runtime's global that streamHandle wraps the handler with.
  const lambdaGlobal =
    'globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };';
  const script = `${lambdaGlobal} const t = performance.now(); await import(${JSON.stringify(join(OUT, 'ask.mjs'))}); console.log(performance.now() - t);`;
  const result = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    env: {
      ...process.env,
      DB_CLUSTER_ARN: 'arn:aws:rds:us-east-1:000000000000:cluster:bench',
      DB_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:bench',
      DB_NAME: 'dropqa',
      STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:bench',
      USER_POOL_ID: 'us-east-1_bench',
      USER_POOL_CLIENT_ID: 'bench',
      DROPQA_STORAGE__KIND: 's3',
      DROPQA_BUCKET: 'bench',
      DROPQA_DATA_DIR: join(OUT, 'data'),
      AWS_REGION: 'us-east-1',
    },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the ask bundle failed to load: ${result.stderr.slice(0, 2000)}`);
  return Number(result.stdout.trim().split('\n').pop());
}

/** `npx cdk synth` with bundling, as a user runs it; seconds. */
async function synthSeconds(): Promise<number> {
  const out = join(OUT, 'cdk.out');
  const began = performance.now();
  await new Promise<void>((done, fail) => {
    const child = spawn('npx', ['cdk', 'synth', '--quiet', '-o', out], { cwd: ROOT, stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`cdk synth exited with ${code}`))));
  });
  return (performance.now() - began) / 1000;
}

export async function benchAws(): Promise<{ rows: Row[]; results: Record<string, unknown> }> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const sizes: Record<string, number> = {};
  for (const [name, entry] of Object.entries(ENTRIES)) sizes[name] = await bundle(name, entry);
  const initMs = askInitMs();
  const synth = await synthSeconds();
  const rows: Row[] = [
    ...Object.entries(sizes).map(([name, bytes]) => ({
      metric: `bundle of the ${name} function (minified, AWS SDK from the runtime)`,
      value: mb(bytes),
      target: name === 'ask' ? '≤ 3 MB' : '',
    })),
    {
      metric: 'ask function module initialization (Node, local)',
      value: `${initMs.toFixed(0)} ms`,
      target: '< 300 ms',
    },
    {
      metric: '`cdk synth` (all stacks, bundling included)',
      value: `${synth.toFixed(1)} s`,
      target: '< 60 s',
    },
  ];
  return { rows, results: { bundleBytes: sizes, askInitMs: initMs, synthSeconds: synth } };
}

/**
 * The AWS deployment's numbers: each function's code (the one esbuild build of infra/function-bundles.ts,
 * exactly what `cdk synth` deploys), the ask function's module initialization in Node, and
 * `cdk synth` (bundling included).
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { FUNCTION_ENTRIES, functionBundle } from '../infra/function-bundles.ts';

type Row = { metric: string; value: string; target: string };

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'node_modules', '.cache', 'dropqa-bench');

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const nameOf = (entry: string) => entry.replace(/^functions\//, '').replace(/(\/handler)?\.ts$/, '');
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** What the deployment sets (see the stacks), with placeholder ARNs: opening makes no network call. */
const LAMBDA_ENV = {
  DROPQA_DATABASE__DATA_API__RESOURCE_ARN: 'arn:aws:rds:us-east-1:000000000000:cluster:bench',
  DROPQA_DATABASE__DATA_API__SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:bench',
  DROPQA_DATABASE__DATA_API__DATABASE: 'dropqa',
  STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:000000000000:stateMachine:bench',
  USER_POOL_ID: 'us-east-1_bench',
  USER_POOL_CLIENT_ID: 'bench',
  DROPQA_STORAGE__KIND: 's3',
  DROPQA_BUCKET: 'bench',
  DROPQA_PROVIDERS__CHAT__KIND: 'bedrock',
  DROPQA_PROVIDERS__EMBEDDER__KIND: 'bedrock',
  DROPQA_PROVIDERS__OCR__KIND: 'textract',
  DROPQA_DATA_DIR: join(OUT, 'data'),
  AWS_REGION: 'us-east-1',
};

/**
 * Imports the ask function's module in a fresh Node process, as Lambda's init phase does (the
 * module's top level opens the runtime: config, Data API and S3 clients, providers); wall and CPU
 * milliseconds.
 */
function askInit(): { wallMs: number; cpuMs: number } {
  const { dir, handler } = functionBundle('functions/ask/handler.ts');
  const module = join(dir, `${handler.slice(0, handler.lastIndexOf('.'))}.mjs`);
  // The Lambda runtime's global that streamHandle wraps the handler with.
  const lambdaGlobal =
    'globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };';
  const script = `${lambdaGlobal} const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(module)}); const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
  const result = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    env: { ...process.env, ...LAMBDA_ENV },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`the ask bundle failed to load: ${result.stderr.slice(0, 2000)}`);
  const [wallMs, cpuMs] = (result.stdout.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { wallMs: wallMs ?? Number.NaN, cpuMs: cpuMs ?? Number.NaN };
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

/**
 * Bundle sizes, the ask function's init time (median of 5 fresh processes) and `cdk synth`
 * (skipped with `synth: false`).
 *
 * @example node bin/run-ts.js bench/aws.ts --no-synth
 */
export async function benchAws(
  options: { synth?: boolean } = {},
): Promise<{ rows: Row[]; results: Record<string, unknown> }> {
  const began = performance.now();
  const bundles = Object.fromEntries(FUNCTION_ENTRIES.map((entry) => [nameOf(entry), functionBundle(entry)]));
  const buildSeconds = (performance.now() - began) / 1000;
  const runs = Array.from({ length: 5 }, askInit);
  const init = { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)) };
  const synth = options.synth === false ? Number.NaN : await synthSeconds();
  const rows: Row[] = [
    ...Object.entries(bundles).map(([name, b]) => ({
      metric: `${name} function code (minified, AWS SDK bundled; loaded at init / with lazy chunks)`,
      value: `${mb(b.initBytes)} / ${mb(b.bytes)}${b.needsNative ? ' + native modules' : ''}`,
      target: name === 'ask' ? '≤ 3 MB' : '',
    })),
    { metric: 'one esbuild build of all functions', value: `${buildSeconds.toFixed(1)} s`, target: '' },
    {
      metric: 'ask function module initialization (Node, local; median of 5, wall / CPU)',
      value: `${init.wallMs.toFixed(0)} ms / ${init.cpuMs.toFixed(0)} ms`,
      target: '< 300 ms',
    },
    {
      metric: '`cdk synth` (all stacks, bundling included)',
      value: `${synth.toFixed(1)} s`,
      target: '< 60 s',
    },
  ];
  return {
    rows,
    results: {
      bundles: Object.fromEntries(
        Object.entries(bundles).map(([name, b]) => [name, { initBytes: b.initBytes, bytes: b.bytes }]),
      ),
      buildSeconds,
      askInit: init,
      askInitRuns: runs,
      synthSeconds: synth,
    },
  };
}

if (process.argv[1]?.endsWith('bench/aws.ts')) {
  const { rows } = await benchAws({ synth: !process.argv.includes('--no-synth') });
  for (const row of rows) console.log(`${row.metric}: ${row.value} ${row.target}`);
}

import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../infra/paths.ts';
import { UNBUNDLED_SITE } from '../../../infra/web-client.ts';
import { copyPackages } from '../../integration/aws/lambda-container.ts';

/** The documents whose deploy sections a reader follows. */
const DOCUMENTS = ['README.md', 'docs/aws.md'];

/**
 * Every `npx cdk synth` / `npx cdk deploy` line of the documents' shell blocks, as the arguments of
 * the synthesis it runs (`cdk deploy` synthesizes exactly as `cdk synth` does before it deploys;
 * `--all` only picks the stacks to deploy).
 */
function documentedSyntheses(): string[][] {
  const commands = new Map<string, string[]>();
  for (const document of DOCUMENTS) {
    const text = readFileSync(join(REPO_ROOT, document), 'utf8');
    for (const block of text.matchAll(/```(?:sh|bash|shell)?\n([\s\S]*?)```/g)) {
      for (const line of (block[1] ?? '').split('\n')) {
        const command = line.replace(/\s+#.*$/, '').trim();
        const match = /^npx cdk (synth|deploy)\b(.*)$/.exec(command);
        if (!match) continue;
        const args = (match[2] ?? '').split(/\s+/).filter((arg) => arg && arg !== '--all');
        commands.set(args.join(' '), args);
      }
    }
  }
  return [...commands.values()];
}

/**
 * A fresh clone: the tracked files the app needs (web/dist is ignored by git, so it is absent) and
 * node_modules as links to this checkout's packages, but a cache folder of its own (the function
 * bundles are built there, not in this checkout's, which other tests use).
 */
function freshClone(root: string): string {
  const clone = join(root, 'clone');
  const listed = spawnSync(
    'git',
    [
      'ls-files',
      // The working tree as a commit of it would be: tracked and new files, not ignored ones.
      '--cached',
      '--others',
      '--exclude-standard',
      'infra',
      'shared',
      'functions',
      'web',
      'scripts',
      'cdk.json',
      'package.json',
      'tsconfig.json',
    ],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  for (const file of listed.stdout.split('\n').filter(Boolean)) {
    if (!existsSync(join(REPO_ROOT, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(clone, file));
  }
  mkdirSync(join(clone, 'node_modules'));
  for (const entry of readdirSync(join(REPO_ROOT, 'node_modules'))) {
    if (entry === '.cache' || entry.startsWith('.vite')) continue;
    symlinkSync(join(REPO_ROOT, 'node_modules', entry), join(clone, 'node_modules', entry));
  }
  return clone;
}

interface Synthesis {
  args: string[];
  status: number | null;
  output: string;
  outdir: string;
}

let root: string;
let clone: string;
const syntheses: Synthesis[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'dropqa-documented-'));
  clone = freshClone(root);
  // This machine's jieba and sharp stand in for the linux-arm64 builds a real synthesis downloads
  // from the npm registry (no network in tests); everything else is the documented command.
  const native = copyPackages(REPO_ROOT, ['@node-rs/jieba', 'sharp'], join(root, 'native'));
  for (const [i, args] of documentedSyntheses().entries()) {
    const outdir = join(root, `cdk.out.${i}`);
    const result = spawnSync(
      'npx',
      [
        'cdk',
        'synth',
        ...args,
        '-c',
        `nativeModules=${native}`,
        '--output',
        outdir,
        '--quiet',
        '--no-notices',
      ],
      {
        cwd: clone,
        encoding: 'utf8',
        env: { ...process.env, CDK_DISABLE_VERSION_CHECK: 'true', CDK_DISABLE_CLI_TELEMETRY: 'true' },
      },
    );
    syntheses.push({ args, status: result.status, output: `${result.stdout}\n${result.stderr}`, outdir });
  }
}, 600_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The files a stack's BucketDeployment copies into the site bucket: its source assets' folders. */
function siteSources(outdir: string): string[] {
  const template = JSON.parse(readFileSync(join(outdir, 'DropQAWeb.template.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: { SourceObjectKeys?: string[] } }>;
  };
  const manifest = JSON.parse(readFileSync(join(outdir, 'DropQAWeb.assets.json'), 'utf8')) as {
    files: Record<string, { source: { path: string } }>;
  };
  const deployment = Object.values(template.Resources).find((r) => r.Type === 'Custom::CDKBucketDeployment');
  return (deployment?.Properties.SourceObjectKeys ?? []).map((key) => {
    const asset = manifest.files[key.replace(/\.zip$/, '')];
    if (!asset) throw new Error(`no asset for ${key}`);
    return join(outdir, asset.source.path);
  });
}

describe('the documented deploy commands', () => {
  it('are found in the deploy sections and all set a region', () => {
    const found = documentedSyntheses();
    expect(found.length).toBeGreaterThan(0);
    for (const args of found) expect(args.join(' ')).toMatch(/-c region=[a-z0-9-]+/);
  });

  it('synthesize as written, cdk-nag included, with no error', () => {
    expect(syntheses.length).toBeGreaterThan(0);
    for (const { args, status, output } of syntheses) {
      expect(output, args.join(' ')).not.toMatch(/Synthesis finished with errors|^ERROR/m);
      expect(status, `${args.join(' ')}\n${output.slice(-4000)}`).toBe(0);
    }
  });

  it('deploy the built web client (built by the synthesis in a fresh clone), not a placeholder', () => {
    for (const { args, outdir } of syntheses) {
      const sources = siteSources(outdir);
      const site = sources.find((dir) => existsSync(join(dir, 'index.html')));
      expect(site, args.join(' ')).toBeDefined();
      const index = readFileSync(join(site as string, 'index.html'), 'utf8');
      // Vite's output: the page loads its hashed bundle, which is in the asset beside it.
      const bundle = /<script type="module"[^>]* src="\/(assets\/[^"]+-[A-Za-z0-9_-]{8}\.js)"/.exec(
        index,
      )?.[1];
      expect(bundle, index).toBeDefined();
      expect(existsSync(join(site as string, bundle as string))).toBe(true);
      expect(index).not.toContain(UNBUNDLED_SITE);
      expect(index).not.toMatch(/has not been built/);
      // The synthesis built it: the clone had no web/dist before.
      expect(readFileSync(join(clone, 'web', 'dist', 'index.html'), 'utf8')).toBe(index);
    }
  });
});

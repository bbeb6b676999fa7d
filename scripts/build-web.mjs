#!/usr/bin/env node
/**
 * Builds the web client (web/ -> web/dist) when the build is missing or older than any of its
 * sources; `--force` always builds. Run by `npm start` and `npm test` (pre-scripts), so a fresh
 * clone serves the real client after `npm install && npm start`, and by the CDK app when it
 * synthesizes the web stack (`npx cdk synth`, `npx cdk deploy`: infra/web-client.ts), so the site
 * deployed is this build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'web');
const built = join(web, 'dist', 'index.html');
const sources = [
  join(web, 'src'),
  join(web, 'index.html'),
  join(web, 'vite.config.ts'),
  join(root, 'package-lock.json'),
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const force = process.argv.includes('--force');
const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const stale = force || builtAt === 0 || sources.some((path) => newest(path) > builtAt);
if (!stale) process.exit(0);

const started = Date.now();
const { build } = await import('vite');
await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });
console.error(`[web] built the client into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);

#!/usr/bin/env node
// Runs a TypeScript entry point (benchmarks, scripts) through tsx: `node bin/run-ts.js bench/run.ts`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node bin/run-ts.js <file.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0] ?? 'node', entry, ...rest];
await import(pathToFileURL(resolve(entry)).href);

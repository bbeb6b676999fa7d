#!/usr/bin/env node
// The CLI is TypeScript. It runs from a bundle of its sources (bin/cli-bundle.js: built on first use
// and whenever a source changed), else through tsx, so a clone works with no build step.
import { pathToFileURL } from 'node:url';
import { buildBundle, freshBundle } from './cli-bundle.js';

let entry = freshBundle();
if (!entry) {
  entry = await buildBundle().catch((error) => {
    process.stderr.write(`note: could not build the CLI bundle (${error.message}); running through tsx\n`);
    return undefined;
  });
}
if (entry) {
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../shared/cli/main.ts');
}

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { REPO_ROOT } from './paths.ts';

/** The built web client (Vite's output; ignored by git). */
export const WEB_DIST = join(REPO_ROOT, 'web', 'dist');
const BUILD_SCRIPT = join(REPO_ROOT, 'scripts', 'build-web.mjs');

/** The command that builds the client by hand, named wherever a synthesis cannot. */
export const BUILD_WEB_COMMAND = 'npm run build:web';

/**
 * Stands in for the client only in a synthesis that skips bundling (tests of the templates' shape):
 * such a cloud assembly is never deployed, since `cdk deploy` bundles every stack it deploys.
 */
export const UNBUNDLED_SITE =
  '<!doctype html><title>DropQA</title><p>This synthesis skipped bundling, so it carries no web client. ' +
  `<code>npx cdk synth</code> and <code>npx cdk deploy</code> build it (<code>${BUILD_WEB_COMMAND}</code>).</p>`;

/**
 * The site's files for the web stack: when the synthesis bundles the stack (`cdk synth`,
 * `cdk deploy`), the client is built first (scripts/build-web.mjs: only when web/dist is missing or
 * older than its sources) and web/dist is the asset; a build that fails stops the synthesis, naming
 * the command to run. Without bundling, web/dist if it is there, else a page saying it is not.
 */
export function webClientSource(stack: Stack): ISource {
  if (stack.bundlingRequired) {
    try {
      execFileSync(process.execPath, [BUILD_SCRIPT], { cwd: REPO_ROOT, stdio: 'inherit' });
    } catch (error) {
      throw new Error(
        `The web client could not be built for the site (${(error as Error).message}); run \`${BUILD_WEB_COMMAND}\` to see why, then synthesize again.`,
      );
    }
    if (!existsSync(join(WEB_DIST, 'index.html')))
      throw new Error(`The web client build left no web/dist/index.html; run \`${BUILD_WEB_COMMAND}\`.`);
    return Source.asset(WEB_DIST);
  }
  return existsSync(join(WEB_DIST, 'index.html'))
    ? Source.asset(WEB_DIST)
    : Source.data('index.html', UNBUNDLED_SITE);
}

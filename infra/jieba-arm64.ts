import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** Where the linux-arm64 build of the jieba segmenter is kept between syntheses. */
export const JIEBA_ARM64_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'dropqa-jieba-linux-arm64');

/**
 * The jieba segmenter is a native module: the functions (arm64) need its linux-arm64 build, which
 * npm does not install on other machines. It is installed once into a cache folder (from the npm
 * registry, the version of the lock file) and copied beside every bundle, instead of one
 * `npm install` per function on every synthesis.
 */
export function ensureJiebaArm64(): string {
  const marker = join(JIEBA_ARM64_DIR, 'node_modules', '@node-rs', 'jieba-linux-arm64-gnu', 'package.json');
  if (existsSync(marker)) return JIEBA_ARM64_DIR;
  const { version } = JSON.parse(
    readFileSync(join(REPO_ROOT, 'node_modules', '@node-rs', 'jieba', 'package.json'), 'utf8'),
  ) as { version: string };
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--prefix',
      JIEBA_ARM64_DIR,
      // The binary package declares os/cpu: --force installs it on a machine of another kind.
      '--force',
      '--no-optional',
      `@node-rs/jieba@${version}`,
      // Any patch release of the same minor: the loader checks versions only on request.
      `@node-rs/jieba-linux-arm64-gnu@~${version.split('.').slice(0, 2).join('.')}.0`,
    ],
    { stdio: 'inherit' },
  );
  return JIEBA_ARM64_DIR;
}

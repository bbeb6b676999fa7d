import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.ts';

/** Where the linux-arm64 builds of the native modules are kept between syntheses. */
export const NATIVE_ARM64_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'dropqa-native-linux-arm64');

const versionOf = (pkg: string): string =>
  (
    JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/**
 * The native modules the functions load, never bundled: the jieba segmenter and sharp (images
 * resized for the chat model). The functions (arm64) need their linux-arm64 builds, which npm does
 * not install on other machines: they are installed once into a cache folder (from the npm
 * registry, the versions of the lock file, with their dependencies) whose `node_modules` is
 * copied beside the functions that use them, instead of one `npm install` per function on every
 * synthesis.
 */
export function ensureNativeArm64(): string {
  const installed = ['@node-rs/jieba-linux-arm64-gnu', '@img/sharp-linux-arm64'].every((pkg) =>
    existsSync(join(NATIVE_ARM64_DIR, 'node_modules', pkg, 'package.json')),
  );
  if (installed) return join(NATIVE_ARM64_DIR, 'node_modules');
  const jieba = versionOf('@node-rs/jieba');
  const sharp = versionOf('sharp');
  const { optionalDependencies = {} } = JSON.parse(
    readFileSync(join(REPO_ROOT, 'node_modules', 'sharp', 'package.json'), 'utf8'),
  ) as { optionalDependencies?: Record<string, string> };
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--prefix',
      NATIVE_ARM64_DIR,
      // The binary packages declare os/cpu: --force installs them on a machine of another kind.
      '--force',
      '--no-optional',
      `@node-rs/jieba@${jieba}`,
      // Any patch release of the same minor: the loader checks versions only on request.
      `@node-rs/jieba-linux-arm64-gnu@~${jieba.split('.').slice(0, 2).join('.')}.0`,
      `sharp@${sharp}`,
      `@img/sharp-linux-arm64@${optionalDependencies['@img/sharp-linux-arm64'] ?? sharp}`,
      `@img/sharp-libvips-linux-arm64@${optionalDependencies['@img/sharp-libvips-linux-arm64'] ?? ''}`,
    ],
    { stdio: 'inherit' },
  );
  return join(NATIVE_ARM64_DIR, 'node_modules');
}

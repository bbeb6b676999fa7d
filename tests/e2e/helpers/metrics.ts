import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ARTIFACTS } from './browser.ts';

const DIST = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
const METRICS = `${ARTIFACTS}metrics.json`;

/** Gzipped bytes of these built scripts (URL paths such as `/assets/index-abc.js`). */
export function gzippedBytes(urlPaths: string[]): number {
  return urlPaths.reduce(
    (sum, path) => sum + gzipSync(readFileSync(`${DIST}${path.replace(/^\//, '')}`), { level: 9 }).length,
    0,
  );
}

/** Adds one measurement to tests/e2e/artifacts/metrics.json. */
export function recordMetric(name: string, value: number): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  const metrics = existsSync(METRICS)
    ? (JSON.parse(readFileSync(METRICS, 'utf8')) as Record<string, number>)
    : {};
  writeFileSync(METRICS, `${JSON.stringify({ ...metrics, [name]: value }, null, 2)}\n`);
}

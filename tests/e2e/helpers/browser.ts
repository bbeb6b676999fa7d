import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, installed with apt when missing (scripts/ensure-chromium.sh), headless. */
export async function launchBrowser(): Promise<Browser> {
  execFileSync('sh', [`${ROOT}scripts/ensure-chromium.sh`], { stdio: 'inherit' });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Builds web/dist when it is missing or stale (a no-op after `npm test`'s pretest). */
export function buildWebClient(): void {
  execFileSync(process.execPath, [`${ROOT}scripts/build-web.mjs`], { stdio: 'inherit' });
}

/** Where `npm run screenshots` publishes the product's screenshots (docs/screenshots), if asked to. */
const PUBLISH = process.env.DROPQA_SCREENSHOTS;
/** Published screenshots stay small enough to commit and to read in a pull request. */
export const MAX_PUBLISHED_BYTES = 200 * 1024;

/**
 * Saves a full-page screenshot as tests/e2e/artifacts/<name>.png; with `publish` and
 * DROPQA_SCREENSHOTS set (`npm run screenshots`), also a palette PNG in that folder, under 200 KB.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { publish?: boolean } = {},
): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const png = await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  if (options.publish && PUBLISH) await publish(png, name, resolve(ROOT, PUBLISH));
}

async function publish(png: Buffer, name: string, dir: string): Promise<void> {
  const { default: sharp } = await import('sharp');
  // Screens are flat colours and text: a 128-colour palette keeps them sharp at a fraction of the size.
  const small = await sharp(png)
    .png({ palette: true, colours: 128, compressionLevel: 9, effort: 10 })
    .toBuffer();
  if (small.length > MAX_PUBLISHED_BYTES)
    throw new Error(
      `${name}.png is ${small.length} bytes; published screenshots must stay under ${MAX_PUBLISHED_BYTES}`,
    );
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.png`), small);
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

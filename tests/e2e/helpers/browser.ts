import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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

/** Saves a full-page screenshot as tests/e2e/artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

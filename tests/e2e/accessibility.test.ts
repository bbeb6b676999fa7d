import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebClient, DESKTOP, launchBrowser, PHONE, screenshot } from './helpers/browser.ts';
import { startTestServer } from './helpers/server.ts';

const READY_TIMEOUT_MS = 120_000;
const ANSWER_TIMEOUT_MS = 60_000;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const PLAN_EN = [
  '# Project Borealis plan',
  '',
  '## Budget',
  '',
  'The Borealis budget is 300 thousand euros for the first year.',
  '',
  '## Team',
  '',
  'Li Lei leads project Borealis; the team meets every Monday.',
  '',
].join('\n');
const PLAN_ZH = [
  '# 北极光项目计划',
  '',
  '## 预算',
  '',
  '北极光项目第一年的预算是三十万欧元。',
  '',
  '## 团队',
  '',
  '李雷负责北极光项目，团队每周一开会。',
  '',
].join('\n');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** WCAG 2.1 A/AA violations axe-core finds on the page as it is, serious or critical only. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })))",
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The English words the page itself shows, outside user content (elements whose `lang` says the
 * content is not Chinese: file names, snippets, English answers) and the product's name.
 */
function englishLabelsScript(userContent: string[]): string {
  return `((userContent) => {
    const strip = (text) => userContent.reduce((t, c) => t.split(c).join(' '), text);
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('script, style, [lang^="en"]')) continue;
      if (!el.closest('option') && !el.checkVisibility()) continue;
      for (const word of strip(node.textContent).match(/[A-Za-z]{3,}/g) ?? []) out.push(word);
    }
    for (const el of document.querySelectorAll('[placeholder], [aria-label]')) {
      if (el.closest('[lang^="en"]')) continue;
      for (const attr of ['placeholder', 'aria-label']) {
        const value = el.getAttribute(attr);
        for (const word of strip(value ?? '').match(/[A-Za-z]{3,}/g) ?? []) out.push(attr + ':' + word);
      }
    }
    return out;
  })(${JSON.stringify(userContent)})`;
}

// One server and one browser for every check; the documents are uploaded once, through the API.
describe('web client accessibility and languages', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let english: BrowserContext;
  let page: Page;
  let documentId = '';
  const types = new Set<string>();

  beforeAll(async () => {
    buildWebClient();
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    // axe-core is injected as a script; the server's Content-Security-Policy allows only its own.
    english = await browser.newContext({
      viewport: DESKTOP,
      baseURL: server.url,
      locale: 'en-GB',
      bypassCSP: true,
    });
    page = await english.newPage();
    for (const [name, text] of [
      ['plan.md', PLAN_EN],
      ['项目计划.md', PLAN_ZH],
    ] as const) {
      const response = await page.request.post('/api/documents/upload', {
        headers: { 'x-dropqa-client': 'web' },
        multipart: { files: { name, mimeType: 'text/markdown', buffer: Buffer.from(text) } },
      });
      expect(response.ok()).toBe(true);
    }
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (let ready = 0; ready < 2; await new Promise((resolve) => setTimeout(resolve, 500))) {
      if (Date.now() > deadline) throw new Error('The two documents did not become ready');
      const list = (await (await page.request.get('/api/documents')).json()) as {
        items: { id: string; filename: string; status: string }[];
      };
      documentId = list.items.find((d) => d.filename === 'plan.md')?.id ?? '';
      ready = list.items.filter((d) => d.status === 'ready').length;
    }
    const status = (await (await page.request.get('/api/status')).json()) as {
      readableTypes: { type: string; extensions: string[] }[];
    };
    // A type and its extensions (docx, png) are file names' parts, not labels to translate.
    for (const t of status.readableTypes) {
      types.add(t.type);
      for (const extension of t.extensions) types.add(extension.replace(/^\./, ''));
    }
  }, READY_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await english?.close();
    await browser?.close();
    await server?.close();
  });

  /** Asks on the open Q&A page by keyboard (Enter) and waits for the finished answer. */
  async function askByKeyboard(target: Page, question: string) {
    const before = await target.getByTestId('turn').count();
    await target.locator('#question').focus();
    await target.keyboard.type(question);
    await target.keyboard.press('Enter');
    const turn = target.getByTestId('turn').nth(before);
    await turn.locator('article[aria-busy="false"]').waitFor({ timeout: ANSWER_TIMEOUT_MS });
    return turn;
  }

  it('has no serious or critical axe violation on any page', async () => {
    const found: Record<string, string[]> = {};
    for (const path of ['/', '/documents', `/documents/${documentId}`, '/topics', '/ask']) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      if (path === '/ask') await askByKeyboard(page, 'Who leads project Borealis?');
      found[path] = await seriousViolations(page);
    }
    expect(found).toEqual({
      '/': [],
      '/documents': [],
      [`/documents/${documentId}`]: [],
      '/topics': [],
      '/ask': [],
    });
  });

  it('walks the main tasks by keyboard: pages, folder upload, asking, following a citation', async () => {
    await page.goto('/');
    await page.locator('main h1').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documents' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/documents$/);
    await expect.poll(() => page.evaluate('document.activeElement?.tagName')).toBe('H1');
    expect(await page.getByTestId('page-announcement').textContent()).toContain('Documents');

    // Folder upload is a button, reached by Tab, that opens a directory picker. The chooser listener
    // goes first: Playwright turns on file-chooser interception asynchronously, and a key press that
    // overtakes it opens the (headless, invisible) native dialog instead of raising the event.
    const chooser = page.waitForEvent('filechooser');
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate('document.activeElement?.dataset?.testid')) === 'choose-folder';
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    expect(
      await (await chooser)
        .element()
        .evaluate((input) => (input as unknown as { webkitdirectory: boolean }).webkitdirectory),
    ).toBe(true);

    // Backwards through a long page on a phone: a focused element is never under the sticky header.
    await page.setViewportSize(PHONE);
    await page.goto(`/documents/${documentId}`);
    await page.getByTestId('section-text').first().waitFor();
    await page.locator('main a, main button, main summary').last().focus();
    const headerBottom = (await page.getByTestId('header').boundingBox())?.height ?? 0;
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      const top = (await page.evaluate(
        "document.activeElement.closest('main') ? document.activeElement.getBoundingClientRect().top : Infinity",
      )) as number;
      expect(top).toBeGreaterThanOrEqual(headerBottom - 1);
    }
    await page.setViewportSize(DESKTOP);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Ask' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ask$/);
    const turn = await askByKeyboard(page, 'What is the Borealis budget?');
    await expect
      .poll(() => page.getByTestId('answer-announcement').textContent())
      .toMatch(/Answer ready\. .*300/);
    const citation = turn.locator('a.citation').first();
    await citation.focus();
    await page.keyboard.press('Enter');
    const focused = page.locator(':focus');
    expect(await focused.getAttribute('data-testid')).toBe('source');
    const top = (await focused.evaluate((el) => el.getBoundingClientRect().top)) as number;
    expect(top).toBeGreaterThanOrEqual(headerBottom - 1);
    // Focus ring: 3 px indigo 700 (7.9:1 on white).
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineColor')).toBe(
      'rgb(67, 56, 202)',
    );
    const size = await citation.boundingBox();
    expect(Math.min(size?.width ?? 0, size?.height ?? 0)).toBeGreaterThanOrEqual(24);
  });

  it('renders every page in Chinese for a zh-CN browser, without an English label', async () => {
    const chinese = await browser.newContext({ viewport: DESKTOP, baseURL: server.url, locale: 'zh-CN' });
    try {
      const tab = await chinese.newPage();
      const english: Record<string, string[]> = {};
      // File types (md, docx) are names, not labels.
      const names = new Set(['DropQA', 'Enter', 'Shift', ...types]);
      // Names from the documents themselves (file names, section titles, topics) are not labels.
      const topics = (await (await tab.request.get('/api/topics')).json()) as { items: { name: string }[] };
      const structure = (await (await tab.request.get(`/api/documents/${documentId}/structure`)).json()) as {
        sections: { title: string; children: { title: string }[] }[];
      };
      const userContent = [
        'uploads/plan.md',
        'plan.md',
        ...topics.items.map((t) => t.name),
        ...structure.sections.flatMap((s) => [s.title, ...s.children.map((c) => c.title)]),
      ].sort((a, b) => b.length - a.length);
      for (const [path, name] of [
        ['/', 'dashboard'],
        ['/documents', 'documents'],
        [`/documents/${documentId}`, 'document'],
        ['/topics', 'topics'],
        ['/ask', 'ask'],
      ] as const) {
        await tab.goto(path);
        await tab.locator('main h1').waitFor();
        await tab.waitForLoadState('networkidle');
        if (name === 'ask') await askByKeyboard(tab, '北极光项目的预算是多少？');
        expect(await tab.evaluate('document.documentElement.lang')).toBe('zh-CN');
        english[path] = ((await tab.evaluate(englishLabelsScript(userContent))) as string[]).filter(
          (w) => !names.has(w),
        );
        for (const [viewport, size] of [
          [DESKTOP, 'desktop'],
          [PHONE, 'phone'],
        ] as const) {
          await tab.setViewportSize(viewport);
          await screenshot(tab, `${name}-zh-${size}`, { publish: true });
        }
        await tab.setViewportSize(DESKTOP);
      }
      expect(english).toEqual({
        '/': [],
        '/documents': [],
        [`/documents/${documentId}`]: [],
        '/topics': [],
        '/ask': [],
      });
      // The choice is remembered: switched to English, the next visit opens in English.
      await tab.getByTestId('language').selectOption('en');
      await tab.reload();
      await tab.getByRole('heading', { name: 'Ask your documents' }).waitFor();
      expect(await tab.evaluate('document.documentElement.lang')).toBe('en');
    } finally {
      await chinese.close();
    }
  });
});

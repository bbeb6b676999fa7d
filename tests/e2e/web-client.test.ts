import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPng } from '../helpers/text-png.ts';
import { buildWebClient, DESKTOP, launchBrowser, PHONE, screenshot } from './helpers/browser.ts';
import { startFakeCognito } from './helpers/fake-cognito.ts';
import { notesMarkdown, planDocx } from './helpers/fixtures.ts';
import { dropFilesScript, scriptedAskScript } from './helpers/in-page.ts';
import { gzippedBytes, recordMetric } from './helpers/metrics.ts';
import { startTestServer } from './helpers/server.ts';

const READY_TIMEOUT_MS = 120_000;
const ANSWER_TIMEOUT_MS = 60_000;

// One server and one browser for the whole scenario: the documents uploaded first are the ones
// asked about afterwards (opening a data folder and a browser costs seconds each).
describe('web client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    buildWebClient();
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    context = await browser.newContext({ viewport: DESKTOP, baseURL: server.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  /** Asks on the open Q&A page and waits until the answer is finished (answered or failed). */
  async function ask(question: string, mode = 'auto'): Promise<ReturnType<Page['locator']>> {
    const before = await page.getByTestId('turn').count();
    await page.getByTestId('mode').selectOption(mode);
    await page.getByLabel('Question').fill(question);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const turn = page.getByTestId('turn').nth(before);
    await turn.locator('article[aria-busy="false"]').waitFor({ timeout: ANSWER_TIMEOUT_MS });
    return turn;
  }

  it('uploads a Word and a Markdown file dropped together and shows them ready without reloading', async () => {
    await page.goto('/documents');
    await page.getByTestId('dropzone').waitFor();
    const docx = Buffer.from(await planDocx()).toString('base64');
    const md = Buffer.from(notesMarkdown()).toString('base64');
    await page.evaluate(
      dropFilesScript([
        {
          name: 'plan.docx',
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          base64: docx,
        },
        { name: 'notes.md', type: 'text/markdown', base64: md },
      ]),
    );
    // Two busy cores: the uploads may take longer than expect.poll's default second.
    await expect
      .poll(() => page.getByTestId('uploads').getByText('uploaded').count(), { timeout: 30_000 })
      .toBe(2);
    for (const name of ['plan.docx', 'notes.md']) {
      await page
        .locator(`[data-filename="${name}"] [data-status="ready"]`)
        .waitFor({ timeout: READY_TIMEOUT_MS });
    }
    await screenshot(page, 'documents-desktop', { publish: true });
  });

  it('shows a script tag from a document as text and never runs it', async () => {
    await page.goto('/ask');
    const turn = await ask('What did the reviewers find in the release notes?');
    const answer = turn.getByTestId('answer');
    await expect.poll(() => answer.textContent()).toContain('<script>');
    expect(await answer.locator('script, img').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });

  it('answers in every mode with badges, and keeps the reasoning trace collapsed by default', async () => {
    await page.goto('/ask');
    for (const mode of ['auto', 'agent', 'two-stage', 'documents']) {
      const turn = await ask('What is the cloud migration budget?', mode);
      const failed = await turn.getByTestId('answer-error').count();
      if (failed > 0) {
        // A flow the server does not offer yet must fail plainly, in words.
        expect(await turn.getByTestId('answer-error').textContent()).toMatch(/\w{4,}/);
        continue;
      }
      expect(await turn.getByTestId('answer').textContent()).toMatch(/\S/);
      expect(await turn.locator('[data-confidence]').count()).toBe(1);
      expect(await turn.getByTestId('mode-badge').textContent()).toMatch(/mode/);
      if (mode === 'auto') {
        const trace = turn.getByTestId('trace');
        expect(await trace.evaluate((el) => (el as unknown as { open: boolean }).open)).toBe(false);
        await trace.locator('summary').click();
        expect(await trace.evaluate((el) => (el as unknown as { open: boolean }).open)).toBe(true);
      }
    }
    await screenshot(page, 'ask-modes-desktop');
  });

  it('keeps a conversation: a follow-up shows what was searched for, and the conversation reopens after a reload', async () => {
    await page.goto('/ask');
    await page.getByTestId('new-conversation').click();
    expect(await page.getByTestId('turn').count()).toBe(0);
    const first = await ask('Who leads project Alpha?');
    expect(await first.getByTestId('rewrite').count()).toBe(0);
    const second = await ask('Which project did he lead before?');
    expect(await second.getByTestId('rewrite').textContent()).toMatch(
      /Searched for: .*zhang san.*\(with turn 1\)/is,
    );
    expect(await second.getByTestId('answer').textContent()).toContain('project Beta');
    const third = await ask('What does its architecture diagram show?');
    expect(await third.getByTestId('rewrite').textContent()).toMatch(/alpha/i);
    expect(await third.getByTestId('answer').textContent()).toContain('ingestion pipeline');

    await page.reload();
    await page
      .getByTestId('history')
      .getByRole('button', { name: /Who leads project Alpha\?/ })
      .first()
      .click();
    await expect.poll(() => page.getByTestId('turn').count()).toBe(3);
    const reopened = page.getByTestId('turn').nth(1);
    expect(await reopened.getByTestId('rewrite').textContent()).toMatch(/zhang san/i);
    expect(await reopened.getByTestId('answer').textContent()).toContain('project Beta');
    await screenshot(page, 'ask-conversation-desktop');
  });

  it('opens the document at the cited section when a source is clicked', async () => {
    await page.goto('/ask');
    const turn = await ask('Who leads project Alpha?');
    await screenshot(page, 'ask-desktop', { publish: true });
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'ask-phone', { publish: true });
    await page.setViewportSize(DESKTOP);
    await turn.getByTestId('source-link').filter({ hasText: 'Team' }).first().click();
    await page.waitForURL(/\/documents\/[0-9a-f-]{36}\?/);
    const target = page.locator('[data-target="true"]');
    await target.waitFor();
    expect(await target.textContent()).toContain('Team');
    await screenshot(page, 'document-desktop', { publish: true });
    await page.setViewportSize(PHONE);
    await screenshot(page, 'document-phone', { publish: true });
    await page.setViewportSize(DESKTOP);
  });

  it('shows a document’s images with their OCR text, full size on click, and links to their section', async () => {
    const card = page.getByTestId('image-card').first();
    await card.waitFor();
    // Whatever tesseract read from the picture (its pixel font reads loosely), as the API lists it.
    const id = /\/documents\/([0-9a-f-]{36})/.exec(page.url())?.[1];
    const listed = (await (await page.request.get(`/api/v1/documents/${id}/images`)).json()) as {
      items: { ocrText: string | null }[];
    };
    const ocr = listed.items[0]?.ocrText?.trim() ?? '';
    expect(ocr).toMatch(/[A-Z]{4}/);
    expect(await card.getByTestId('image-ocr').textContent()).toContain(ocr);
    expect(await card.locator('img').getAttribute('loading')).toBe('lazy');
    await card.getByRole('button', { name: /Open img_\d+\.png full size/ }).click();
    const full = page.locator('dialog[open] img');
    await full.waitFor();
    await expect
      .poll(() => full.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Close' }).click();
    await card.getByTestId('image-section').click();
    await page.waitForURL(/[?&]at=[0-9a-f-]{36}/);
    await expect.poll(() => page.locator('[data-target="true"]').textContent()).toContain('Architecture');
  });

  it('signs in through Cognito when config.json asks for it, sends the token on every call and signs in again once it expires', async () => {
    const cognito = await startFakeCognito({ alice: { password: 'Temporary-1', mustChangePassword: true } });
    // The page of the AWS deployment, which CloudFront serves with its own headers: the local
    // server's Content-Security-Policy (connect-src 'self') would refuse the fake Cognito's port.
    const signed = await browser.newContext({ viewport: DESKTOP, baseURL: server.url, bypassCSP: true });
    try {
      const refused: string[] = [];
      let served = 0;
      await signed.route('**/config.json', (route) =>
        route.fulfill({
          json: {
            auth: {
              type: 'cognito',
              region: 'eu-west-1',
              userPoolId: 'eu-west-1_E2E',
              clientId: 'e2e-client',
              endpoint: cognito.url,
            },
          },
        }),
      );
      // What functions/ask does in AWS: the token from x-dropqa-token, or from the cookie for images;
      // and what CloudFront's origin access control needs to sign a POST or PUT for the function URL:
      // the body's SHA-256 in x-amz-content-sha256 (a wrong one fails the signature).
      const unsignedPayloads: string[] = [];
      await signed.route('**/api/**', async (route) => {
        const request = route.request();
        const headers = await request.allHeaders();
        if (request.method() === 'POST' || request.method() === 'PUT') {
          const hash = createHash('sha256')
            .update(request.postDataBuffer() ?? Buffer.alloc(0))
            .digest('hex');
          if (headers['x-amz-content-sha256'] !== hash) {
            unsignedPayloads.push(new URL(request.url()).pathname);
            return route.fulfill({
              status: 403,
              json: { message: 'The request signature we calculated does not match' },
            });
          }
        }
        const cookie = /(?:^|;\s*)dropqa_token=([^;]+)/.exec(headers.cookie ?? '')?.[1];
        if (cognito.isValid(headers['x-dropqa-token'] ?? cookie ?? '')) {
          served += 1;
          return route.continue();
        }
        refused.push(new URL(route.request().url()).pathname);
        return route.fulfill({
          status: 401,
          json: { error: { code: 'unauthorized', message: 'Invalid token' } },
        });
      });
      const tab = await signed.newPage();
      await tab.goto('/');
      await tab.getByTestId('signin-form').waitFor();
      expect(await tab.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      await screenshot(tab, 'sign-in-desktop', { publish: true });
      await tab.setViewportSize(PHONE);
      expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await screenshot(tab, 'sign-in-phone', { publish: true });
      await tab.setViewportSize(DESKTOP);

      await tab.getByLabel('User name').fill('alice');
      await tab.getByLabel('Password').fill('wrong');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => tab.getByTestId('signin-error').textContent())
        .toContain('Incorrect user name or password');
      await tab.getByLabel('Password').fill('Temporary-1');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      await tab.getByLabel('New password', { exact: true }).fill('Chosen-pass-1');
      await tab.getByLabel('Repeat the new password').fill('Chosen-pass-1');
      await tab.getByRole('button', { name: 'Set password and sign in' }).click();
      await tab.getByTestId('signed-in-user').getByText('alice').waitFor();
      expect(cognito.calls).toEqual(['InitiateAuth', 'InitiateAuth', 'RespondToAuthChallenge']);
      // The tab keeps its session across a reload (sessionStorage), without asking Cognito again.
      await tab.reload();
      await tab.getByTestId('signed-in-user').getByText('alice').waitFor();
      expect(cognito.calls).toHaveLength(3);

      const docs = (await (await page.request.get('/api/documents?name=plan.docx')).json()) as {
        items: { id: string }[];
      };
      await tab.goto(`/documents/${docs.items[0]?.id}`);
      const thumbnail = tab.getByTestId('image-card').first().locator('img');
      await thumbnail.scrollIntoViewIfNeeded();
      await expect
        .poll(() => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
        .toBeGreaterThan(0);

      await tab.goto('/ask');
      await tab.getByLabel('Question').fill('Who leads project Alpha?');
      await tab.getByRole('button', { name: 'Ask', exact: true }).click();
      await tab.locator('article[aria-busy="false"]').waitFor({ timeout: ANSWER_TIMEOUT_MS });
      expect(await tab.getByTestId('answer').first().textContent()).toContain('Zhang San');
      expect(refused).toEqual([]);
      expect(unsignedPayloads).toEqual([]);
      expect(served).toBeGreaterThan(5);

      cognito.expireAll();
      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Topics' }).click();
      await tab.getByRole('status').getByText('Your session has expired').waitFor();
      expect(refused).toContain('/api/topics');
      await tab.getByLabel('User name').fill('alice');
      await tab.getByLabel('Password').fill('Chosen-pass-1');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('heading', { name: 'Topics', exact: true }).waitFor();

      await tab.getByRole('button', { name: 'Sign out' }).click();
      await tab.getByTestId('signin-form').waitFor();
      expect(await tab.evaluate("sessionStorage.getItem('dropqa.idToken')")).toBeNull();
    } finally {
      await signed.close();
      await cognito.close();
    }
  });

  it('paints streamed text within 100 ms, shows document progress, opens image references and stops', async () => {
    const scripted = await context.newPage();
    await scripted.route('**/api/v1/documents/**', (route) =>
      route.fulfill({ contentType: 'image/png', body: Buffer.from(textPng('ARCHITECTURE')) }),
    );
    await scripted.goto('/ask');
    await scripted.evaluate(scriptedAskScript(SCRIPTED_ANSWER));
    await scripted.getByLabel('Question').fill('产品架构图的核心模块是什么？');
    await scripted.getByRole('button', { name: 'Ask', exact: true }).click();
    await scripted.getByTestId('progress').getByText('Reading document 1 of 2: 架构.docx').waitFor();
    await scripted.locator('article[aria-busy="false"]').waitFor();
    const delay = (await scripted.evaluate('window.__paintedAt - window.__deltaAt')) as number;
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(100);
    recordMetric('firstDeltaPaintMs', Math.round(delay * 10) / 10);
    expect(await scripted.locator('[data-confidence="high"]').count()).toBe(1);
    expect(await scripted.getByTestId('iteration-badge').textContent()).toContain('2 iterations');
    expect(await scripted.getByTestId('unverified').count()).toBe(1);
    await scripted.getByRole('button', { name: /Open image DOC-0000abcd-IMAGE-1/ }).click();
    await scripted.locator('dialog[open] img').waitFor();
    await screenshot(scripted, 'ask-image-reference-desktop', { publish: true });
    await scripted.getByRole('button', { name: 'Close' }).click();

    await scripted.evaluate(
      scriptedAskScript([{ event: 'meta', data: { mode: 'auto', provider: 'x' } }, 'hang']),
    );
    await scripted.getByLabel('Question').fill('A question that is stopped');
    await scripted.getByRole('button', { name: 'Ask', exact: true }).click();
    await scripted.getByRole('button', { name: 'Stop' }).click();
    await scripted.getByTestId('progress').getByText('Stopped.').waitFor();

    await scripted.evaluate(
      scriptedAskScript([
        { event: 'meta', data: { mode: 'agent', provider: 'bedrock' } },
        { event: 'progress', data: { stage: 'degraded', message: 'the chat model failed: HTTP 500' } },
        { event: 'delta', data: { text: 'Quoted from the documents.' } },
        {
          event: 'done',
          data: {
            response: { answer: 'Quoted from the documents.', confidence: 'low', sources: [], mode: 'agent' },
          },
        },
      ]),
    );
    await scripted.getByLabel('Question').fill('A question the model fails on');
    await scripted.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect
      .poll(() => scripted.getByTestId('degraded').last().textContent())
      .toContain('the chat model failed: HTTP 500');
    await scripted.close();
  });

  it('fits every page on a 360 px wide screen and saves screenshots of each', async () => {
    for (const [path, name] of [
      ['/', 'dashboard'],
      ['/documents', 'documents'],
      ['/topics', 'topics'],
      ['/ask', 'ask'],
    ] as const) {
      for (const [viewport, size] of [
        [PHONE, 'phone'],
        [DESKTOP, 'desktop'],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        if (size === 'phone') {
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            PHONE.width,
          );
        }
        // The Q&A page is shot with an answer (above) and documents on desktop right after the upload.
        if (name !== 'ask' && (name !== 'documents' || size === 'phone'))
          await screenshot(page, `${name}-${size}`, { publish: true });
      }
    }
  });

  it('merges one topic into another from the topics page', async () => {
    await page.goto('/topics');
    const cloud = page.getByTestId('topic-cloud').getByRole('link');
    await cloud.first().waitFor();
    const before = await cloud.count();
    const names = await page
      .getByLabel('Merge this topic…')
      .locator('option:not([disabled])')
      .allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(2);
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByLabel('Merge this topic…').selectOption({ index: 1 });
    await page.getByLabel('…into this one').selectOption({ index: 2 });
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/^Merged/)
      .waitFor();
    await expect.poll(() => cloud.count()).toBe(before - 1);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    await screenshot(page, 'topics-merged-desktop');
  });

  it('loads at most 250 KB of gzipped JavaScript when any page is opened first', async () => {
    let heaviest = 0;
    for (const path of ['/', '/documents', '/topics', '/ask']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const scripts = (await page.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js'))",
      )) as string[];
      heaviest = Math.max(heaviest, gzippedBytes([...new Set(scripts)]));
    }
    recordMetric('initialJsGzipBytesHeaviestPage', heaviest);
    expect(heaviest).toBeGreaterThan(10_000);
    expect(heaviest).toBeLessThanOrEqual(250 * 1024);
  });

  it('moves focus through the navigation with the keyboard and shows where it is', async () => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).toBe('solid');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/documents$/);
  });

  it('shows a table answer’s rows as a small table, each row linked to its source, in English and Chinese', async () => {
    for (const [name, text] of [
      ['stanley-cups.csv', STANLEY_CUPS_CSV],
      [
        'nba-champions-zh.csv',
        readFileSync(join(import.meta.dirname, '../fixtures/tables/nba-champions-zh.csv')),
      ],
    ] as const) {
      const response = await page.request.post('/api/documents/upload', {
        headers: { 'x-dropqa-client': 'web' },
        multipart: { files: { name, mimeType: 'text/csv', buffer: Buffer.from(text) } },
      });
      expect(response.ok()).toBe(true);
    }
    await page.goto('/documents');
    for (const name of ['stanley-cups.csv', 'nba-champions-zh.csv'])
      await page
        .locator(`[data-filename="${name}"] [data-status="ready"]`)
        .waitFor({ timeout: READY_TIMEOUT_MS });
    await page.goto('/ask');
    const turn = await ask('How many Stanley Cups have the Maple Leafs won?');
    const table = turn.getByTestId('answer-table');
    await table.waitFor();
    expect(await table.locator('th').allTextContents()).toEqual([
      'Source',
      'Team',
      'Stanley Cups',
      'Last won',
    ]);
    const rows = table.getByTestId('answer-table-row');
    expect(await rows.count()).toBe(1);
    expect((await rows.first().locator('td').allTextContents()).map((t) => t.trim())).toEqual([
      '[1]',
      'Toronto Maple Leafs',
      '13',
      '1967',
    ]);
    // The table replaces the answer's text list of the rows; the result and how stay as text.
    const answer = await turn.getByTestId('answer').textContent();
    expect(answer).toContain('13');
    expect(answer).not.toContain('Rows used');
    await rows.first().getByRole('link', { name: 'Source 1' }).click();
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toMatch(/-ref-1$/);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'ask-table-phone', { publish: true });
    await page.setViewportSize(DESKTOP);

    const chinese = await browser.newContext({ viewport: DESKTOP, baseURL: server.url, locale: 'zh-CN' });
    try {
      const tab = await chinese.newPage();
      await tab.goto('/ask');
      await tab.locator('#question').fill('湖人赢得过多少次总冠军？');
      await tab.locator('#question').press('Enter');
      const zhTable = tab.getByTestId('answer-table');
      await zhTable.waitFor({ timeout: ANSWER_TIMEOUT_MS });
      expect(await zhTable.locator('figcaption').textContent()).toMatch(/^\s*所用的行/);
      expect(await zhTable.locator('th').allTextContents()).toEqual([
        '来源',
        '球队',
        '分区',
        '总冠军次数',
        '最近夺冠',
      ]);
      const cells = zhTable.getByTestId('answer-table-row').first().locator('td');
      expect((await cells.allTextContents()).map((t) => t.trim())).toEqual([
        '[1]',
        '洛杉矶湖人',
        '西部',
        '17',
        '2020',
      ]);
      expect(await cells.nth(1).getAttribute('lang')).toBe('zh');
      await screenshot(tab, 'ask-table-zh-desktop', { publish: true });
    } finally {
      await chinese.close();
    }
  });
});

/** The newcomer's Stanley Cup results (issue 31), made small. */
const STANLEY_CUPS_CSV = [
  'Team,Stanley Cups,Last won',
  'Montreal Canadiens,24,1993',
  'Toronto Maple Leafs,13,1967',
  'Detroit Red Wings,11,2008',
  'Boston Bruins,6,2011',
].join('\n');

const SOURCE = {
  citation: 1,
  document_id: '00000000-0000-4000-8000-0000000000ab',
  document_name: '架构.docx',
  section: '第2章 架构 > 2.1 核心模块',
  snippet: '核心模块包括检索服务与摄取管道。',
  relevance: 0.91,
  node_id: '00000000-0000-4000-8000-0000000000cd',
  version: 1,
  verified: false,
};

const SCRIPTED_ANSWER = [
  { event: 'meta', data: { mode: 'documents', provider: 'scripted' } },
  { event: 'progress', data: { stage: 'stage1', current: 1, total: 2, doc_name: '架构.docx' } },
  {
    event: 'trace',
    data: { step: 1, type: 'thought', content: 'Read the architecture document.' },
    delayMs: 400,
  },
  { event: 'delta', data: { text: '核心模块是**检索服务** [1]' }, delayMs: 300 },
  { event: 'delta', data: { text: '，如图所示 [DOC-0000abcd-IMAGE-1]。' }, delayMs: 50 },
  {
    event: 'references',
    data: {
      sources: [SOURCE],
      references: [
        {
          ref_id: 'DOC-0000abcd-IMAGE-1',
          doc_id: SOURCE.document_id,
          doc_name: '架构.docx',
          chunk_type: 'image',
          image_url: `/api/v1/documents/${SOURCE.document_id}/images/img_001.png?version=1`,
          version: 1,
        },
      ],
    },
  },
  {
    event: 'done',
    data: {
      response: {
        answer: '核心模块是**检索服务** [1]，如图所示 [DOC-0000abcd-IMAGE-1]。',
        confidence: 'high',
        sources: [SOURCE],
        identified_topics: [],
        mode: 'documents',
        requested_mode: 'documents',
        iterations: 2,
        provider: 'scripted',
      },
    },
  },
];

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { statusCommand } from '#shared/cli/commands/status.ts';
import { type Config, loadConfig } from '#shared/config/index.ts';
import type { DocumentSummary } from '#shared/documents/index.ts';
import { queueDocument } from '#shared/documents/write.ts';
import { createIngestService } from '#shared/pipeline/ingest.ts';
import { STEPS } from '#shared/pipeline/step-table.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

function form(files: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, content] of Object.entries(files)) body.append('files', new Blob([content]), name);
  return body;
}

/** `queued` for work nothing is running must read differently from queued work that waits its turn. */
describe('document activity: running, waiting, stopped', () => {
  let dir: string;
  let config: Config;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  let parseStarted!: () => void;
  const parsing = new Promise<void>((resolve) => {
    parseStarted = resolve;
  });

  const list = async () => {
    const res = await app.request('/api/documents?limit=50');
    const body = (await res.json()) as { items: DocumentSummary[] };
    return Object.fromEntries(body.items.map((d) => [d.key, d]));
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-activity-'));
    config = loadConfig({ env: {}, overrides: { dataDir: dir, limits: { pipelineConcurrency: 1 } } });
    const opened = await openRuntime(config);
    // One slot and a Parse step that holds until the test lets it go: the first file runs, the second waits.
    const ingest = createIngestService(opened, {
      steps: {
        Parse: async (input, deps) => {
          parseStarted();
          await gate;
          return STEPS.Parse(input, deps);
        },
      },
    });
    rt = { ...opened, ingest };
    app = createApp(rt);
  });
  let closed = false;
  afterAll(async () => {
    openGate();
    if (!closed) await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says which document runs, which waits for a slot, and which nothing is working on', async () => {
    const res = await app.request('/api/documents/upload', {
      method: 'POST',
      headers: { 'x-dropqa-client': 'test' },
      body: form({ 'first.md': '# First\n\nOne.\n', 'second.md': '# Second\n\nTwo.\n' }),
    });
    expect(res.status).toBe(200);
    // Left queued by a process that stopped: no execution exists for it here.
    const left = await queueDocument(rt.db, {
      key: 'uploads/left.md',
      filename: 'left.md',
      collection: 'default',
    });
    await parsing;

    const during = await list();
    expect(during['uploads/first.md']).toMatchObject({ status: 'processing', activity: 'running' });
    expect(during['uploads/second.md']).toMatchObject({ status: 'queued', activity: 'waiting' });
    expect(during['uploads/left.md']).toMatchObject({ status: 'queued', activity: 'stopped' });
    const detail = (await (await app.request(`/api/documents/${left.id}`)).json()) as DocumentSummary;
    expect(detail.activity).toBe('stopped');

    openGate();
    await rt.ingest.idle();
    const after = await list();
    expect(after['uploads/first.md']?.status).toBe('ready');
    expect(after['uploads/first.md']).not.toHaveProperty('activity');
    expect(after['uploads/second.md']?.status).toBe('ready');
  });

  it('`dropqa status` without a server says the left document is stopped and how it resumes', async () => {
    await rt.close();
    closed = true;
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      expect(await statusCommand(config, { json: false })).toBe(0);
    } finally {
      write.mockRestore();
    }
    const text = out.join('');
    expect(text).toMatch(
      /uploads\/left\.md {2}queued \(stopped: nothing is working on it; `dropqa serve` or `dropqa ingest` picks it up when started\)/,
    );
    expect(text).toMatch(/3 document\(s\): .*1 stopped/);
    expect(text).toMatch(/3 document\(s\): .*2 ready/);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { parseSse } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import { type LogFields, type LogLevel, setLogSink } from '#shared/log/logger.ts';
import { TASK_NAMES } from '#shared/pipeline/definition.ts';
import type { QaEvent } from '#shared/qa/events.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { scriptedChat } from '../../helpers/scripted-chat.ts';

type Line = { level: LogLevel; message: string; fields: LogFields };

const PASSAGE = 'The Zephyrine reactor budget is 4.2 million crowns, approved by Ottoline Varga.';
const QUESTION = 'What is the Zephyrine reactor budget?';
const ANSWER = 'Answered with the Zephyrine figures [1].';
const SECRET = 'sk-very-secret-9f8e7d';

describe('logs of the pipeline and of answers', () => {
  const lines: Line[] = [];
  let previous: ReturnType<typeof setLogSink>;
  let dir: string;
  let rt: Runtime;
  const events: QaEvent[] = [];

  beforeAll(async () => {
    previous = setLogSink((level, message, fields) => lines.push({ level, message, fields }));
    dir = mkdtempSync(join(tmpdir(), 'dropqa-logs-'));
    rt = await openRuntime(
      loadConfig({
        env: {},
        overrides: { dataDir: dir, server: { token: SECRET }, search: { rerank: { apiKey: SECRET } } },
      }),
    );
    await rt.ingest.ingest([
      { key: 'logs/reactor.md', bytes: new TextEncoder().encode(`# Reactor\n\n${PASSAGE}\n`) },
      // Not a PDF: Parse fails, and its failure is logged.
      { key: 'logs/broken.pdf', bytes: new TextEncoder().encode(`%PDF-1.7\n1 0 obj\n(${PASSAGE})\n%%EOF\n`) },
    ]);
    const chat = scriptedChat((_, kind) =>
      kind === 'structured' ? { sufficient: true, reason: 'the passages answer it' } : ANSWER,
    );
    const app = createApp({ ...rt, qa: { ...rt.qa, providers: { ...rt.qa.providers, chat } } });
    const res = await app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: QUESTION, mode: 'standard' }),
    });
    for await (const event of parseSse(res.body as ReadableStream<Uint8Array>)) events.push(event);
  }, 60_000);

  afterAll(async () => {
    setLogSink(previous);
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs every step of an ingestion with the document, version, key and step', () => {
    const finished = lines.filter(
      (l) => l.message === 'pipeline: step finished' && l.fields.key === 'logs/reactor.md',
    );
    const steps = finished.map((l) => l.fields.step);
    for (const step of ['Register', 'Parse', 'Summarize', 'Topics', 'Activate'])
      expect(steps).toContain(step);
    expect(steps.every((s) => TASK_NAMES.includes(s as never))).toBe(true);
    for (const line of finished) {
      expect(line.level).toBe('debug');
      expect(line.fields).toMatchObject({
        documentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        version: 1,
        durationMs: expect.any(Number),
      });
    }
  });

  it('logs a failed step with its reason and identifiers', () => {
    const failed = lines.find(
      (l) => l.message === 'pipeline: step failed' && l.fields.key === 'logs/broken.pdf',
    );
    expect(failed).toMatchObject({
      level: 'warn',
      fields: { step: 'Parse', version: 1, documentId: expect.any(String), reason: expect.any(String) },
    });
  });

  it('logs one line per answer with the modes, timings and token usage', () => {
    expect(events.at(-1)?.type).toBe('done');
    const asked = lines.filter((l) => l.message === 'ask: request');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.fields).toMatchObject({
      route: 'ask',
      requestedMode: 'standard',
      mode: 'direct',
      outcome: 'answered',
      conversationId: expect.any(String),
      firstEventMs: expect.any(Number),
      firstTextMs: expect.any(Number),
      totalMs: expect.any(Number),
      modelCalls: 1,
      inputTokens: 10,
      outputTokens: 5,
    });
  });

  it('writes no document text, question, answer or secret', () => {
    expect(lines.length).toBeGreaterThanOrEqual(9);
    const written = JSON.stringify(lines);
    for (const text of ['Zephyrine', 'Ottoline', '4.2 million', QUESTION, SECRET]) {
      expect(written).not.toContain(text);
    }
  });
});

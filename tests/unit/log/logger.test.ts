import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { errorFields, type LogFields, type LogLevel, lineSink, log, setLogSink } from '#shared/log/logger.ts';

const lines: { level: LogLevel; message: string; fields: LogFields }[] = [];
const previous = setLogSink((level, message, fields) => lines.push({ level, message, fields }));
afterEach(() => {
  lines.length = 0;
});
afterAll(() => setLogSink(previous));

describe('log', () => {
  it('appends the fields bound with `with` to every line, the call fields winning', () => {
    const step = log.with({ documentId: 'd1', version: 2, key: 'a.md', step: 'Parse' });
    step.info('pipeline: step finished', { durationMs: 12 });
    step.with({ step: 'Summarize' }).warn('fell back');
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'pipeline: step finished',
        fields: { documentId: 'd1', version: 2, key: 'a.md', step: 'Parse', durationMs: 12 },
      },
      {
        level: 'warn',
        message: 'fell back',
        fields: { documentId: 'd1', version: 2, key: 'a.md', step: 'Summarize' },
      },
    ]);
  });

  it('masks secret-looking fields and passwords in URLs, keeps the object key, drops undefined', () => {
    log.error('x', {
      apiKey: 'sk-live-123',
      token: 'abc',
      Authorization: 'Bearer xyz',
      key: 'uploads/a.md',
      url: 'postgres://app:hunter2@db:5432/x',
      missing: undefined,
    });
    expect(lines[0]?.fields).toEqual({
      apiKey: '****',
      token: '****',
      Authorization: '****',
      key: 'uploads/a.md',
      url: 'postgres://app:****@db:5432/x',
    });
  });

  it('clips long values, so a reason cannot carry a whole passage', () => {
    log.warn('x', { reason: 'word '.repeat(1000) });
    expect(String(lines[0]?.fields.reason).length).toBeLessThanOrEqual(301);
  });

  it('keeps working when the sink throws', () => {
    const failing = setLogSink(() => {
      throw new Error('stderr closed');
    });
    expect(() => log.error('x')).not.toThrow();
    setLogSink(failing);
  });
});

describe('errorFields', () => {
  it('gives the name and message, never the cause', () => {
    const error = new TypeError('query failed', { cause: new Error('SELECT secret FROM t WHERE x = $1') });
    expect(errorFields(error)).toEqual({ errorName: 'TypeError', reason: 'query failed', stack: undefined });
  });

  it('gives the call frames of an unexpected error without repeating its message', () => {
    const { stack } = errorFields(new Error('boom'), { stack: true });
    expect(stack).toMatch(/^at /);
    expect(stack).not.toContain('boom');
  });
});

describe('lineSink', () => {
  const written = (options: Parameters<typeof lineSink>[0]) => {
    const out: string[] = [];
    const sink = lineSink({ ...options, write: (line) => out.push(line) });
    return { sink, out };
  };

  it('writes pretty lines: message then key=value, quoting values with spaces, level unless info', () => {
    const { sink, out } = written({ format: 'pretty' });
    sink('info', 'ask: request', { mode: 'direct', totalMs: 5 });
    sink('warn', 'watch: failed', { key: 'a b.md', reason: 'not "UTF-8"' });
    expect(out).toEqual([
      'ask: request mode=direct totalMs=5\n',
      'WARN watch: failed key="a b.md" reason="not \\"UTF-8\\""\n',
    ]);
  });

  it('writes one JSON object per line with level, time and the fields', () => {
    const { sink, out } = written({ format: 'json' });
    sink('error', 'api: request failed', { path: '/api/x' });
    const line = JSON.parse(out[0] ?? '');
    expect(line).toMatchObject({ level: 'error', message: 'api: request failed', path: '/api/x' });
    expect(Number.isNaN(Date.parse(line.time))).toBe(false);
  });

  it('drops lines below its level', () => {
    const { sink, out } = written({ level: 'warn' });
    sink('debug', 'a', {});
    sink('info', 'b', {});
    sink('warn', 'c', {});
    sink('error', 'd', {});
    expect(out).toEqual(['WARN c\n', 'ERROR d\n']);
  });
});

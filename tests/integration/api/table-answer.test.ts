import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { parseSse } from '#shared/cli/http-backend.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { QaEvent } from '#shared/qa/events.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

const CUPS_CSV = [
  'Team,Stanley Cups,Notes,Last won',
  'Montreal Canadiens,24,,1993',
  'Toronto Maple Leafs,13,,1967',
  'Detroit Red Wings,11,,2008',
  'Boston Bruins,6,,2011',
  'Chicago Blackhawks,6,,2015',
].join('\n');

describe('a table answer over HTTP (issue 31)', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-api-table-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
    const body = new FormData();
    body.append('files', new Blob([CUPS_CSV]), 'stanley-cups.csv');
    expect((await app.request('/api/documents/upload', { method: 'POST', body })).status).toBe(200);
    await rt.ingest.idle();
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the rows used as a table in the done event, each row with its citation, the text list kept', async () => {
    const res = await app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'Which team has won the most Stanley Cups?' }),
    });
    const events: QaEvent[] = [];
    for await (const event of parseSse(res.body as ReadableStream<Uint8Array>)) events.push(event);
    const done = events.find((e) => e.type === 'done');
    if (done?.type !== 'done') throw new Error('no done event');
    const { answer, table, sources } = done.data.response;
    // The empty Notes column is left out; the row is the sheet's second, under the header row.
    expect(table).toEqual({
      title: 'stanley-cups',
      columns: ['Team', 'Stanley Cups', 'Last won'],
      rows: [{ citation: 1, number: 2, cells: ['Montreal Canadiens', '24', '1993'] }],
      text_at: expect.any(Number),
    });
    expect(answer.slice(table?.text_at)).toBe(
      'Rows used (stanley-cups):\n- Team: Montreal Canadiens · Stanley Cups: 24 · Last won: 1993 [1]',
    );
    expect(sources[0]?.snippet).toContain('Montreal Canadiens');
  });

  it('describes the table in the OpenAPI document', async () => {
    const doc = (await (await app.request('/api/openapi.json')).json()) as {
      components: { schemas: { QaTable: { properties: Record<string, unknown>; required: string[] } } };
    };
    expect(doc.components.schemas.QaTable.required).toEqual(['title', 'columns', 'rows', 'text_at']);
  });
});

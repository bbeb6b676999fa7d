import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/client.ts';
import type { Database } from '#shared/db/index.ts';
import { csvParser } from '#shared/parse/sheets/parse-workbook.ts';
import { ask, type QaDeps } from '#shared/qa/ask.ts';
import { askRequestSchema } from '#shared/qa/request.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { type FakeServer, fakeProviders, startFake } from '../../fakes/index.ts';
import { testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { indexWithRenditions } from './documents-corpus.ts';
import { collect, done } from './events.ts';

/** Teams and their cups by conference: a sheet whose rows the query filters, groups and sorts. */
const TEAMS = [
  ['Montreal Canadiens', '24', 'East'],
  ['Toronto Maple Leafs', '13', 'East'],
  ['Detroit Red Wings', '11', 'East'],
  ['Boston Bruins', '6', 'East'],
  ['Chicago Blackhawks', '6', 'West'],
  ['Edmonton Oilers', '5', 'West'],
  ['Pittsburgh Penguins', '5', 'East'],
  ['New York Rangers', '4', 'East'],
];
const CSV = ['Team,Stanley Cups,Conference', ...TEAMS.map((t) => t.join(','))].join('\n');

type Kind = 'openai' | 'bedrock';

interface BedrockBlock {
  toolResult?: { content: { text: string }[] };
}

/** The text of every tool result the wire carried in a request: OpenAI `tool` messages, Bedrock `toolResult` blocks. */
const toolResults = (kind: Kind, fake: FakeServer, call: number): string[] => {
  const body = fake.recorded(kind === 'openai' ? 'chat' : 'converse')[call]?.body;
  if (kind === 'openai')
    return (
      body?.messages
        .filter((m: { role: string }) => m.role === 'tool')
        .map((m: { content: string }) => m.content) ?? []
    );
  return (body?.messages ?? [])
    .flatMap((m: { content: BedrockBlock[] }) => m.content)
    .flatMap((c: BedrockBlock) => (c.toolResult ? [c.toolResult.content.map((t) => t.text).join('')] : []));
};

describe('the agent’s query_table tool over the wire (issue 31)', () => {
  let database: Database;
  let dir: string;
  const fakes = {} as Record<Kind, FakeServer>;
  let rowNode: string;
  const embedder = testEmbedder();

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    dir = mkdtempSync(join(tmpdir(), 'dropqa-table-tool-'));
    const cups = await csvParser.parse({ bytes: new TextEncoder().encode(CSV), filename: 'cups.csv' });
    await indexWithRenditions(database.db, new LocalBlobStore(dir), [
      { filename: 'cups.csv', versions: [cups] },
    ]);
    const [row] = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM nodes WHERE metadata->>'kind' = 'rows' ORDER BY ordinal LIMIT 1`,
    );
    rowNode = row?.id ?? '';
    fakes.openai = await startFake('openai');
    fakes.bedrock = await startFake('bedrock');
  });
  afterAll(async () => {
    await fakes.openai?.stop();
    await fakes.bedrock?.stop();
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const deps = (kind: Kind): QaDeps => {
    fakes[kind].reset();
    return {
      db: database.db,
      embedder,
      search: loadConfig({ env: {} }).search,
      access: ALL_COLLECTIONS,
      providers: { ...fakeProviders(kind, fakes[kind]), embedder, label: `${kind} (fake)` },
      qa: { routing: 'rules' },
    };
  };

  it.each<Kind>(['openai', 'bedrock'])(
    'runs the model’s JSON query over the whole table and the answer cites the rows it returned (%s)',
    async (kind) => {
      const qa = deps(kind);
      const fake = fakes[kind];
      fake.enqueue(
        'chat',
        {
          toolCalls: [
            {
              id: 'call_1',
              name: 'query_table',
              input: {
                node_id: rowNode,
                filter: [{ column: 'Conference', op: 'equals', value: 'East' }],
                group_by: 'Conference',
                aggregate: { op: 'sum', column: 'Stanley Cups' },
                sort: { column: 'Stanley Cups', order: 'desc' },
                limit: 3,
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              id: 'call_2',
              name: 'final_answer',
              input: {
                answer: 'Eastern teams won 63 Stanley Cups, the Canadiens most [1].',
                confidence: 'high',
              },
            },
          ],
        },
      );
      const response = done(
        await collect(
          ask(qa, askRequestSchema.parse({ question: 'How many cups did the East win?', mode: 'agent' })),
        ),
      );
      const [result] = toolResults(kind, fake, 1);
      expect(result).toMatch(/6 of 8 rows match/);
      expect(result).toContain('Conference = East: sum of Stanley Cups = 63; 6 row(s)');
      expect(result).toMatch(/- Team: Montreal Canadiens · Stanley Cups: 24 · Conference: East \[1\]/);
      const rows = /<document kind="table-query">([\s\S]*?)<\/document>/.exec(result ?? '')?.[1] ?? '';
      expect(rows.match(/^- /gm)).toHaveLength(3);
      expect(rows).not.toContain('Chicago');
      expect(response.answer).toContain('[1]');
      expect(response.sources[0]?.document_name).toBe('cups.csv');
      expect(response.sources[0]?.snippet).toContain('Montreal Canadiens');
    },
  );

  it('tells the model which columns exist when it names one the table lacks', async () => {
    const qa = deps('openai');
    const fake = fakes.openai;
    fake.enqueue(
      'chat',
      {
        toolCalls: [{ id: 'c1', name: 'query_table', input: { node_id: rowNode, sort: { column: 'Wins' } } }],
      },
      { toolCalls: [{ id: 'c2', name: 'final_answer', input: { answer: 'Not found.', confidence: 'low' } }] },
    );
    await collect(ask(qa, askRequestSchema.parse({ question: 'Who has the most wins?', mode: 'agent' })));
    expect(toolResults('openai', fake, 1)[0]).toMatch(
      /query_table failed: .*no column "Wins" in table .*; columns: Team, Stanley Cups, Conference/,
    );
  });

  it('answers a malformed query over Bedrock with where it is wrong, and runs nothing', async () => {
    const qa = deps('bedrock');
    const fake = fakes.bedrock;
    fake.enqueue(
      'chat',
      {
        toolCalls: [
          {
            id: 'tu_1',
            name: 'query_table',
            input: { node_id: rowNode, filter: [{ column: 'Team', op: 'like', value: 'Leafs' }] },
          },
        ],
      },
      {
        toolCalls: [{ id: 'tu_2', name: 'final_answer', input: { answer: 'Not found.', confidence: 'low' } }],
      },
    );
    await collect(
      ask(qa, askRequestSchema.parse({ question: 'How many cups did the Leafs win?', mode: 'agent' })),
    );
    const [result] = toolResults('bedrock', fake, 1);
    expect(result).toMatch(/^Invalid input for query_table: filter\.0\.op: /);
    expect(result).not.toContain('rows match');
  });
});

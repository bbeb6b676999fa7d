import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { loadConfig } from '#shared/config/index.ts';
import type { Database } from '#shared/db/index.ts';
import type { ChatRequest, Embedder, EmbedOptions } from '#shared/llm/types.ts';
import { ask, type QaDeps } from '#shared/qa/ask.ts';
import type { QaEvent } from '#shared/qa/events.ts';
import { type AskRequestInput, askRequestSchema } from '#shared/qa/request.ts';
import type { QaResponse } from '#shared/qa/response.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';
import { testEmbedder } from '../../helpers/corpus.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { EN_CONVERSATION_CORPUS, ZH_CONVERSATION_CORPUS } from './conversation-corpus.ts';
import { indexWithRenditions } from './documents-corpus.ts';
import { collect, done } from './events.ts';

/** The test embedder, recording every query it embeds: what retrieval actually searched for. */
class RecordingEmbedder implements Embedder {
  readonly queries: string[] = [];
  constructor(private readonly inner: Embedder) {}
  get model() {
    return this.inner.model;
  }
  get dimensions() {
    return this.inner.dimensions;
  }
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]> {
    if (texts.length === 1 && options?.purpose !== 'document') this.queries.push(texts[0] as string);
    return this.inner.embed(texts, options);
  }
}

interface Turn {
  events: QaEvent[];
  response: QaResponse;
  rewrite?: { standalone_question: string; from_turns: number[] };
  /** The queries embedded while this turn was answered. */
  searched: string[];
}

const ZH_TURNS = ['星河计划的负责人是谁？', '他之前负责的项目结果如何？', '那它的预算是多少？'];
const EN_TURNS = [
  'Who leads Project Orion?',
  'What was the outcome of the project she ran before?',
  'And its budget?',
];

describe('conversations', () => {
  let database: Database;
  let embedder: RecordingEmbedder;
  let dir: string;
  let store: LocalBlobStore;
  const config = loadConfig({ env: {} });

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    embedder = new RecordingEmbedder(testEmbedder());
    dir = mkdtempSync(join(tmpdir(), 'dropqa-conversation-'));
    store = new LocalBlobStore(dir);
    await indexWithRenditions(database.db, store, [...ZH_CONVERSATION_CORPUS, ...EN_CONVERSATION_CORPUS]);
  });

  afterAll(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const offline = (): QaDeps & { store: LocalBlobStore } => ({
    db: database.db,
    access: ALL_COLLECTIONS,
    embedder,
    search: config.search,
    store,
    providers: { embedder, label: 'offline (extractive)' },
  });

  async function turn(deps: QaDeps, input: AskRequestInput): Promise<Turn> {
    const before = embedder.queries.length;
    const events = await collect(ask(deps, askRequestSchema.parse(input)));
    const rewrite = events.find((e) => e.type === 'rewrite');
    return {
      events,
      response: done(events),
      rewrite: rewrite?.type === 'rewrite' ? rewrite.data : undefined,
      searched: embedder.queries.slice(before),
    };
  }

  async function converse(deps: QaDeps, questions: string[], mode: AskRequestInput['mode'] = 'standard') {
    const turns: Turn[] = [];
    for (const question of questions) {
      const conversation_id = turns[0]?.response.conversation_id;
      turns.push(await turn(deps, { question, mode, ...(conversation_id ? { conversation_id } : {}) }));
    }
    return turns;
  }

  const documentsOf = (t: Turn) => t.response.sources.map((s) => s.document_name);

  describe.each([
    [
      'Chinese',
      ZH_TURNS,
      ['星河计划.md', '北斗项目复盘.md', '北斗项目复盘.md'],
      /李明/,
      /北斗项目/,
      '天穹项目.md',
    ],
    [
      'English',
      EN_TURNS,
      ['orion.md', 'atlas-review.md', 'atlas-review.md'],
      /maria chen/,
      /atlas/,
      'vega.md',
    ],
  ] as const)('offline, in %s', (_, questions, expectedDocs, turn1Term, turn2Term, otherBudget) => {
    let turns: Turn[];
    beforeAll(async () => {
      turns = await converse(offline(), [...questions]);
    });

    it('keeps the turns in one conversation, the first without a rewrite', () => {
      const ids = new Set(turns.map((t) => t.response.conversation_id));
      expect(ids.size).toBe(1);
      expect(turns[0]?.rewrite).toBeUndefined();
      const meta = turns[1]?.events[0];
      expect(meta).toMatchObject({
        type: 'meta',
        data: { conversation_id: turns[0]?.response.conversation_id },
      });
    });

    it('rewrites each follow-up with the earlier turns and searches for the rewrite', () => {
      const [, second, third] = turns as [Turn, Turn, Turn];
      expect(second.rewrite?.standalone_question.toLowerCase()).toMatch(turn1Term);
      expect(second.rewrite?.from_turns).toEqual([1]);
      expect(third.rewrite?.standalone_question.toLowerCase()).toMatch(turn2Term);
      expect(third.rewrite?.from_turns).toContain(2);
      for (const t of [second, third]) {
        const types = t.events.map((e) => e.type);
        expect(types.indexOf('rewrite')).toBe(1);
        expect(t.searched).toContain(t.rewrite?.standalone_question);
        expect(t.response.rewrite).toEqual(t.rewrite);
      }
    });

    it('answers each turn from the right document', () => {
      turns.forEach((t, i) => {
        expect(documentsOf(t)[0]).toBe(expectedDocs[i]);
      });
    });

    it('finds less for a follow-up asked alone', async () => {
      const alone = await turn(offline(), { question: questions[2] as string, mode: 'standard' });
      expect(alone.rewrite).toBeUndefined();
      expect(alone.searched.join(' ').toLowerCase()).not.toMatch(turn2Term);
      // Two projects have a budget: alone, the question cannot tell them apart (which one ranks
      // first is a tie broken by the ranking's details), so the answer quotes both budgets; with
      // the earlier turns it quotes the right project's only.
      expect(documentsOf(alone)).toEqual(expect.arrayContaining([expectedDocs[2], otherBudget]));
      expect(documentsOf(turns[2] as Turn)).not.toContain(otherBudget);
    });
  });

  it('leaves a question that stands alone unchanged and says it drew on no turn', async () => {
    const [, second] = await converse(offline(), ['Who leads Project Orion?', 'What did Project Vega cost?']);
    expect(second?.rewrite).toEqual({ standalone_question: 'What did Project Vega cost?', from_turns: [] });
  });

  it('takes the earlier turns from history for a caller that keeps them', async () => {
    const t = await turn(offline(), {
      question: '那它的预算是多少？',
      mode: 'standard',
      history: [{ question: '李明此前负责哪个项目？', answer: '李明此前负责北斗项目。' }],
    });
    expect(t.rewrite?.standalone_question).toContain('北斗项目');
    expect(documentsOf(t)[0]).toBe('北斗项目复盘.md');
  });

  it('carries the version and document filters over until a turn changes them', async () => {
    const first = await turn(offline(), { question: '星河计划的负责人是谁？', mode: 'standard', version: 1 });
    const id = first.response.conversation_id as string;
    const second = await turn(offline(), {
      question: '它的目标是什么？',
      mode: 'standard',
      conversation_id: id,
    });
    expect(second.response.version).toBe(1);
    const third = await turn(offline(), {
      question: '它的目标是什么？',
      mode: 'standard',
      conversation_id: id,
      version: null,
    });
    expect(third.response.version).toBeUndefined();
  });

  it.each(['auto', 'agent', 'two-stage', 'documents'] as const)(
    'resolves the follow-up before retrieval in %s mode',
    async (mode) => {
      const turns = await converse(offline(), ZH_TURNS.slice(0, 2), mode);
      const second = turns[1] as Turn;
      expect(second.rewrite?.standalone_question).toMatch(/李明/);
      expect(second.searched.some((q) => q.includes('李明'))).toBe(true);
      expect(second.response.sources.map((s) => s.document_name)).toContain('北斗项目复盘.md');
    },
  );

  describe('with a chat model', () => {
    const standalone: Record<string, string> = {
      '他之前负责的项目结果如何？': '李明此前负责的北斗项目结果如何？',
      '那它的预算是多少？': '北斗项目的预算是多少？',
      'What was the outcome of the project she ran before?':
        'What was the outcome of the Atlas migration Maria Chen ran?',
      'And its budget?': 'What was the budget of the Atlas migration?',
    };
    const condenseCalls: ChatRequest[] = [];
    const answerCalls: ChatRequest[] = [];
    const chat = scriptedChat((request, kind) => {
      if (request.role === 'condense') {
        condenseCalls.push(request);
        const latest = /Latest question: (.*)/.exec(promptText(request))?.[1]?.trim() ?? '';
        return { standalone_question: standalone[latest] ?? latest, from_turns: [1, 2, 99] };
      }
      if (kind === 'structured') return { sufficient: true, reason: 'the passages answer it' };
      answerCalls.push(request);
      return 'Answered from the passages [1].';
    });
    const withModel = (): QaDeps => ({
      ...offline(),
      providers: { embedder, chat, label: 'scripted' },
      qa: { historyTokens: 1500 },
    });

    it.each([
      ['Chinese', ZH_TURNS, '北斗项目复盘.md'],
      ['English', EN_TURNS, 'atlas-review.md'],
    ] as const)(
      'rewrites the follow-ups of a %s conversation with one condense call each',
      async (_, questions, target) => {
        condenseCalls.length = 0;
        answerCalls.length = 0;
        const turns = await converse(withModel(), [...questions]);
        expect(condenseCalls).toHaveLength(2);
        expect(promptText(condenseCalls[0] as ChatRequest)).toContain(questions[0]);
        const [, second, third] = turns as [Turn, Turn, Turn];
        expect(second.rewrite).toEqual({
          standalone_question: standalone[questions[1] as string],
          from_turns: [1],
        });
        expect(third.rewrite).toEqual({
          standalone_question: standalone[questions[2] as string],
          from_turns: [1, 2],
        });
        for (const t of [second, third]) {
          expect(t.searched).toContain(t.rewrite?.standalone_question);
          expect(t.response.sources[0]?.document_name).toBe(target);
          expect(t.events.some((e) => e.type === 'usage' && e.data.stage === 'condense')).toBe(true);
        }
      },
    );

    it('gives the answering model the earlier turns without their citation markers', () => {
      const third = answerCalls.at(-1) as ChatRequest;
      expect(third.messages.slice(0, 4).map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(third.messages[0]?.content).toBe(EN_TURNS[0]);
      expect(third.messages[1]?.content).toBe('Answered from the passages.');
      expect(promptText(third)).toContain(standalone['And its budget?']);
    });

    it('does not call the model to rewrite a first turn or a question that stands alone', async () => {
      condenseCalls.length = 0;
      await converse(withModel(), ['Who leads Project Orion?', 'What did Project Vega cost?']);
      expect(condenseCalls).toHaveLength(0);
    });

    it('bounds the earlier turns by the token budget, newest first', async () => {
      answerCalls.length = 0;
      await converse({ ...withModel(), qa: { historyTokens: 25 } }, [...EN_TURNS]);
      const third = answerCalls.at(-1) as ChatRequest;
      expect(third.messages.length).toBe(3);
      expect(third.messages[0]?.content).toBe(EN_TURNS[1]);
    });
  });
});

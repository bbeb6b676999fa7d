import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { initialAgentState } from '#shared/qa/agent/initial-state.ts';
import { AGENT_TOOLS, toolSpecs } from '#shared/qa/agent/tools/index.ts';
import type { AgentState } from '#shared/qa/agent/types.ts';
import { ask } from '#shared/qa/ask.ts';
import { askRequestSchema, type QaMode } from '#shared/qa/request.ts';
import { versionQuestion } from '#shared/qa/versions/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { collect, done } from './events.ts';

/** Questions across versions ("what changed in X"), answered from the version diff. */

const utf8 = (text: string) => new TextEncoder().encode(text);

const REFUNDS_V1 = `# Refund policy

## Refund window

Refunds are accepted within 14 days of delivery.

## Exchanges

Exchanges are free of charge.
`;

const REFUNDS_V2 = `# Refund policy

## Refund window

Refunds are accepted within 30 days of delivery.

## Exchanges

Exchanges are free of charge.

## Store credit

Store credit never expires.
`;

describe('versionQuestion', () => {
  it('recognises what-changed questions in English and Chinese, with the versions they name', () => {
    expect(versionQuestion('What changed in the refund policy?')).toEqual({ versions: [] });
    expect(versionQuestion('How did the refund window change between versions?')).toEqual({ versions: [] });
    expect(versionQuestion('退款政策的第二版改了什么？')).toEqual({ versions: [2] });
    expect(versionQuestion('What are the differences between version 1 and version 3?')).toEqual({
      versions: [1, 3],
    });
    expect(versionQuestion('What is the refund window?')).toBeUndefined();
  });
});

describe('questions across versions', () => {
  let dir: string;
  let rt: Runtime;
  const question = (text: string, mode: QaMode = 'auto') =>
    collect(ask(rt.qa, askRequestSchema.parse({ question: text, mode })));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-qa-versions-'));
    rt = await openRuntime(parseConfig({ dataDir: dir, providers: { ocr: { kind: 'none' } } }));
    await rt.ingest.ingest([{ key: 'uploads/refund-policy.md', bytes: utf8(REFUNDS_V1) }]);
    await rt.ingest.ingest([{ key: 'uploads/refund-policy.md', bytes: utf8(REFUNDS_V2) }]);
    await rt.ingest.ingest([
      { key: 'uploads/parking.md', bytes: utf8('# Parking\n\nVisitors park on level 2.\n') },
    ]);
    await rt.ingest.ingest([
      { key: 'uploads/parking.md', bytes: utf8('# Parking\n\nVisitors park on level 3.\n') },
    ]);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers offline by quoting the changed passages of both versions, cited with their version', async () => {
    const events = await question('What changed in the refund policy?');
    const response = done(events);
    expect(response.answer).toBe(
      [
        'What changed in refund-policy.md from version 1 to version 2:',
        '- Refund policy > Refund window: version 1 said "Refunds are accepted within 14 days of delivery." [1]; version 2 says "Refunds are accepted within 30 days of delivery." [2].',
        '- New section "Refund policy > Store credit": "Store credit never expires." [3].',
      ].join('\n'),
    );
    expect(response.sources.map((s) => [s.citation, s.version, s.document_name])).toEqual([
      [1, 1, 'refund-policy.md'],
      [2, 2, 'refund-policy.md'],
      [3, 2, 'refund-policy.md'],
    ]);
    expect(events.some((e) => e.type === 'trace' && e.data.tool === 'compare_versions')).toBe(true);
  });

  it('routes agent-mode and Chinese questions the same way, to the document they name', async () => {
    const agent = done(await question('How did the refund window change between versions?', 'agent'));
    expect(agent.answer).toContain('14 days');
    expect(agent.answer).toContain('30 days');
    const parking = done(await question('停车说明 parking 的第二版改了什么？'));
    expect(parking.answer).toContain('"Visitors park on level 2." [1]');
    expect(parking.answer).toContain('"Visitors park on level 3." [2]');
  });

  it('leaves other questions to the usual flow', async () => {
    const response = done(await question('What is the refund window?'));
    expect(response.sources.every((s) => s.version === 2)).toBe(true);
    expect(response.answer).not.toContain('What changed in');
  });

  it('gives the agent a compare_versions tool that adds the passages of both versions to the evidence', async () => {
    expect(toolSpecs().map((spec) => spec.name)).toContain('compare_versions');
    const tool = AGENT_TOOLS.get('compare_versions');
    const [first] = await rt.ingest.ingest([{ key: 'uploads/refund-policy.md', bytes: utf8(REFUNDS_V2) }]);
    const request = askRequestSchema.parse({ question: 'How long is the refund window now?', mode: 'agent' });
    const state: AgentState = {
      ...initialAgentState({
        question: request.question,
        request,
        filters: {},
        route: { scope: 'corpus', categories: [], reason: 'test' },
        maxIterations: 5,
      }),
      iteration: 1,
    };
    const outcome = await tool?.run({ deps: rt.qa, state }, {
      document_id: first?.documentId,
      from: 1,
      to: 2,
    } as never);
    expect(outcome?.summary).toMatch(/^Compared versions 1 and 2: 3 changed passage\(s\)/);
    expect(outcome?.observation).toContain(
      'version 1 said "Refunds are accepted within 14 days of delivery."',
    );
    expect(state.evidence.hits.map((h) => [h.version, h.content])).toEqual([
      [1, 'Refunds are accepted within 14 days of delivery.'],
      [2, 'Refunds are accepted within 30 days of delivery.'],
      [2, 'Store credit never expires.'],
    ]);
  });

  it('has the chat model write the answer from both versions, when there is one', async () => {
    const chat = scriptedChat(() => 'The refund window went from 14 days [1] to 30 days [2].');
    const deps = { ...rt.qa, providers: { ...rt.qa.providers, chat } };
    const events = await collect(
      ask(deps, askRequestSchema.parse({ question: 'What changed in the refund policy?' })),
    );
    const response = done(events);
    expect(response.answer).toBe('The refund window went from 14 days [1] to 30 days [2].');
    expect(response.sources.slice(0, 2).map((s) => s.version)).toEqual([1, 2]);
    const prompt = promptText(chat.calls.at(-1)?.request ?? { role: 'answer', messages: [] });
    expect(prompt).toContain('version="1"');
    expect(prompt).toContain('Refunds are accepted within 14 days of delivery.');
    expect(prompt).toContain('Refunds are accepted within 30 days of delivery.');
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import { contextualizeVersion } from '#shared/enrich/context/index.ts';
import { indexParsedDocument } from '#shared/index/index-document.ts';
import type { ChatRequest } from '#shared/llm/types.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { CONTAINER_PARAGRAPH, planDocument } from '../../unit/index/plan-document.ts';
import { insertDocument } from '../index/insert-document.ts';

const OPTIONS = {
  documentSummary: 'A 2024 plan for moving the core systems to a hybrid cloud.',
  concurrency: 4,
};

/** Answers every passage `[n] text` of the prompt with "Passage n is about the hybrid cloud plan." */
function contextChat() {
  return scriptedChat((request: ChatRequest) => ({
    contexts: [...promptText(request).matchAll(/^\[(\d+)\] /gm)].map((m) => ({
      id: Number(m[1]),
      context: `Passage ${m[1]} is about the hybrid cloud plan.`,
    })),
  }));
}

interface ParagraphState {
  content: string;
  index_text: string;
  context: string | null;
  weighted_c: string;
}

describe.each(DRIVERS)('contextualizeVersion (%s)', (driver) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.close();
  });

  async function indexed(version = 1, documentId?: string, parsed = planDocument()): Promise<string> {
    const id = documentId ?? (await insertDocument(database.db, `doc-${Math.random()}.md`));
    await indexParsedDocument(database.db, { documentId: id, version, parsed });
    return id;
  }

  async function paragraphs(documentId: string, version = 1): Promise<ParagraphState[]> {
    return queryRows<ParagraphState>(
      database.db,
      sql`SELECT content, index_text, metadata->>'context' AS context,
            ts_filter(search_vector, '{c}')::text AS weighted_c
          FROM nodes WHERE document_id = ${documentId}::uuid AND version = ${version}::int
            AND node_type = 'paragraph' ORDER BY ordinal`,
    );
  }

  it('prepends one generated sentence to each prose paragraph, in one call for a small document', async () => {
    const documentId = await indexed();
    const chat = contextChat();
    const result = await contextualizeVersion(database.db, chat, { documentId, version: 1 }, OPTIONS);
    expect(chat.calls).toHaveLength(1);
    expect(chat.calls[0]?.kind).toBe('structured');
    const prompt = promptText(chat.calls[0]?.request ?? { role: 'summarize', messages: [] });
    expect(prompt).toContain(OPTIONS.documentSummary);
    expect(prompt).toContain('## 第3章 基础设施 > 3.2 云平台建设 > 3.2.1 容器化改造');
    const rows = await paragraphs(documentId);
    const container = rows.find((r) => r.content === CONTAINER_PARAGRAPH);
    expect(container?.index_text).toMatch(/^Passage \d+ is about the hybrid cloud plan\.\n/);
    expect(container?.index_text).toContain(CONTAINER_PARAGRAPH);
    expect(container?.weighted_c).toMatch(/'hybrid':\d+C/);
    const code = rows.find((r) => r.content.startsWith('const budget'));
    expect(code?.context).toBeNull();
    expect(result).toMatchObject({ modelCalls: 1, reused: 0, failures: [] });
    expect(result.paragraphs).toBe(rows.length - 1);
  });

  it('reuses the contexts of unchanged paragraphs in a new version', async () => {
    const documentId = await indexed();
    await contextualizeVersion(database.db, contextChat(), { documentId, version: 1 }, OPTIONS);
    const changed = planDocument();
    changed.children[0] = { type: 'paragraph', text: 'This plan now also covers hiring.' };
    await indexed(2, documentId, changed);
    const chat = contextChat();
    const result = await contextualizeVersion(database.db, chat, { documentId, version: 2 }, OPTIONS);
    expect(chat.calls).toHaveLength(1);
    expect(promptText(chat.calls[0]?.request ?? { role: 'summarize', messages: [] })).toContain(
      '[1] This plan now also covers hiring.',
    );
    expect(result.reused).toBe(result.paragraphs - 1);
  });

  it('keeps the plain index text and reports the failure when the model fails', async () => {
    const documentId = await indexed();
    const before = await paragraphs(documentId);
    const chat = scriptedChat(() => {
      throw new Error('throttled');
    });
    const result = await contextualizeVersion(database.db, chat, { documentId, version: 1 }, OPTIONS);
    expect(result.failures[0]).toMatch(/throttled/);
    expect(await paragraphs(documentId)).toEqual(before);
  });

  it('does not prepend twice when run again on the same version', async () => {
    const documentId = await indexed();
    await contextualizeVersion(database.db, contextChat(), { documentId, version: 1 }, OPTIONS);
    const once = await paragraphs(documentId);
    const chat = contextChat();
    await contextualizeVersion(database.db, chat, { documentId, version: 1 }, OPTIONS);
    expect(chat.calls).toHaveLength(0);
    expect(await paragraphs(documentId)).toEqual(once);
  });
});

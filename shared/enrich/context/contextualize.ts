import { z } from 'zod';
import { createLimiter } from '#shared/async/limiter.ts';
import type { Db } from '#shared/db/client.ts';
import { reasonOf } from '#shared/errors.ts';
import type { ChatModel } from '#shared/llm/types.ts';
import { fillPrompt, loadPrompt } from '../prompt.ts';
import { contextKey, previousContexts } from './context-cache.ts';
import { loadParagraphs, type ParagraphRow } from './paragraph-rows.ts';
import { writeContexts } from './write-contexts.ts';

/** One call covers whole sections up to these bounds (the answer is ~30 tokens a passage). */
const MAX_PASSAGES_PER_CALL = 40;
const MAX_CHARS_PER_CALL = 16_000;
/** A passage's first characters say what it is about; the prompt need not carry all of it. */
const MAX_PASSAGE_CHARS = 600;

const contextsSchema = z.object({
  contexts: z.array(z.object({ id: z.number().int(), context: z.string().trim() })),
});

export interface ContextResult {
  paragraphs: number;
  modelCalls: number;
  /** Contexts taken from an earlier version whose paragraph and section path were the same. */
  reused: number;
  /** Why some batches got no contexts (their paragraphs keep the plain index text). */
  failures: string[];
}

/**
 * Contextual index text (docs/spec.md#contexts): each paragraph gets one sentence, generated from
 * the document summary, that situates it in the document; it is prepended to the paragraph's index
 * text (what is embedded) and indexed with weight C. Paragraphs are sent in batches of whole
 * sections (at most `concurrency` calls at once), so a document costs a few calls, not one per
 * paragraph. A context is keyed by the document title, section path and paragraph text: unchanged
 * paragraphs of a new version reuse theirs. A failed batch is reported, not thrown: those
 * paragraphs keep the meta-content form.
 *
 * @example await contextualizeVersion(db, chat, { documentId, version }, { documentSummary, concurrency: 4 });
 */
export async function contextualizeVersion(
  db: Db,
  chat: ChatModel,
  ref: { documentId: string; version: number },
  options: { documentSummary: string; concurrency: number },
): Promise<ContextResult> {
  const { title, paragraphs } = await loadParagraphs(db, ref);
  const previous = await previousContexts(db, ref.documentId);
  const updates: { id: string; context: string; key: string }[] = [];
  const pending: (ParagraphRow & { key: string })[] = [];
  let reused = 0;
  for (const paragraph of paragraphs) {
    if (paragraph.context !== null) continue;
    const key = contextKey(title, paragraph.path, paragraph.content);
    const cached = previous.get(key);
    if (cached) {
      reused += 1;
      updates.push({ id: paragraph.id, context: cached, key });
    } else pending.push({ ...paragraph, key });
  }

  const limit = createLimiter(options.concurrency);
  const failures: string[] = [];
  const batches = packBySection(pending);
  await Promise.all(
    batches.map((batch) =>
      limit.run(async () => {
        try {
          const contexts = await generate(chat, title, options.documentSummary, batch);
          batch.forEach((p, i) => {
            const context = contexts.get(i + 1);
            if (context) updates.push({ id: p.id, context, key: p.key });
          });
        } catch (error) {
          failures.push(`${batch.length} paragraphs of ${batch[0]?.path || title}: ${reasonOf(error)}`);
        }
      }),
    ),
  );
  await writeContexts(db, updates);
  return { paragraphs: updates.length, modelCalls: batches.length, reused, failures };
}

/** Consecutive whole sections per batch; a section larger than one batch is split on its own. */
function packBySection<T extends ParagraphRow>(paragraphs: T[]): T[][] {
  const sections: T[][] = [];
  for (const p of paragraphs) {
    const last = sections.at(-1);
    if (last && last[0]?.sectionId === p.sectionId) last.push(p);
    else sections.push([p]);
  }
  const batches: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  const flush = () => {
    if (current.length > 0) batches.push(current);
    current = [];
    chars = 0;
  };
  for (const section of sections) {
    const size = section.reduce((n, p) => n + Math.min(p.content.length, MAX_PASSAGE_CHARS), 0);
    if (current.length + section.length > MAX_PASSAGES_PER_CALL || chars + size > MAX_CHARS_PER_CALL) flush();
    for (const p of section) {
      if (current.length >= MAX_PASSAGES_PER_CALL || chars >= MAX_CHARS_PER_CALL) flush();
      current.push(p);
      chars += Math.min(p.content.length, MAX_PASSAGE_CHARS);
    }
  }
  flush();
  return batches;
}

async function generate(
  chat: ChatModel,
  title: string,
  summary: string,
  batch: ParagraphRow[],
): Promise<Map<number, string>> {
  const lines: string[] = [];
  let path: string | undefined;
  batch.forEach((p, i) => {
    if (p.path !== path) {
      path = p.path;
      lines.push(`## ${p.path || title}`);
    }
    lines.push(`[${i + 1}] ${p.content.slice(0, MAX_PASSAGE_CHARS)}`);
  });
  const { value } = await chat.structured(
    {
      role: 'summarize',
      system: loadPrompt('paragraph-context-system'),
      messages: [
        {
          role: 'user',
          content: fillPrompt(loadPrompt('paragraph-context'), {
            title,
            summary,
            passages: lines.join('\n'),
          }),
        },
      ],
    },
    contextsSchema,
  );
  return new Map(value.contexts.filter((c) => c.context).map((c) => [c.id, c.context]));
}

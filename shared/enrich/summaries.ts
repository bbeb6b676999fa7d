import type { SQL } from 'drizzle-orm';
import { createLimiter } from '#shared/async/limiter.ts';
import type { Db } from '#shared/db/client.ts';
import type { ChatModel, Providers } from '#shared/llm/types.ts';
import { extractiveSummary } from '#shared/text/extractive-summary.ts';
import { contextKey, previousContexts } from './context/context-cache.ts';
import { writeContexts } from './context/write-contexts.ts';
import { previousSummaries, summaryKey } from './summary-cache.ts';
import { summarizeWithContexts } from './summary-call.ts';
import {
  isPassage,
  loadSummaryTree,
  modelInput,
  offlineInput,
  type SummaryNode,
  sectionsOf,
} from './summary-tree.ts';
import type { OutlineSection } from './topics/outline.ts';
import { type SummaryUpdate, summaryIndexText, writeSummaries } from './write-summaries.ts';

/** Sections in 1-2 sentences, the document in 2-3 (docs/spec.md#summaries). */
const SECTION_LIMITS = { maxSentences: 2, maxChars: 200 };
const DOCUMENT_LIMITS = { maxSentences: 3, maxChars: 300 };
/**
 * Bounds one prompt's data (a section's first ~12k characters say what it is about) and the
 * passages it asks contexts for: at ~40 tokens a context, 20 keep the answer within the default
 * 1024 output tokens of the summarize role (a cut answer is invalid JSON).
 */
const PROMPT_LIMITS = { maxChars: 12_000, maxPassages: 20 };
/** Model calls in flight when the caller does not say (`providers.chat.maxConcurrency`). */
const DEFAULT_CONCURRENCY = 4;
/** Bumped when prompts or extraction change, so cached summaries are not reused across methods. */
const CHAT_METHOD_VERSION = 2;
const OFFLINE_METHOD_VERSION = 1;

type ContextUpdate = { id: string; context: string; key: string };

/** Where a version stands once every section is summarized (the document summary is next). */
export interface SectionsDone {
  title: string;
  /** Every section in reading order with its summary. */
  sections: OutlineSection[];
  /**
   * Nodes whose index text is final only after the document summary: the document, its own
   * paragraphs (their contexts come with its summary) and paragraphs left without a context.
   */
  late: ReadonlySet<string>;
  /** Settles once the section summaries and their paragraphs' contexts are written. */
  written: Promise<void>;
}

export interface SummarizeOptions {
  concurrency?: number;
  /**
   * Runs once every section is summarized, while the document summary is generated and the section
   * summaries and contexts are written (e.g. embed the sections and leaves once `written` settles);
   * awaited before returning.
   */
  afterSections?: (done: SectionsDone) => Promise<void>;
  /** Sent with the first read of the version's nodes (`withWrites`): the step's own bookkeeping. */
  writes?: readonly SQL[];
  /**
   * With a chat model: no new model call starts after this time (epoch ms) once `concurrency` have
   * started; what was summarized is written and the result is `complete: false`. Called again, the
   * written summaries are reused (this version's own, by key) and the rest goes on: a long
   * document is summarized over several bounded invocations.
   */
  deadline?: number;
}

export interface SummarizeResult {
  /** False when the deadline stopped the sections: the rest (and the document) is for the next call. */
  complete: boolean;
  sections: number;
  /** Chat model calls made (0 offline). */
  modelCalls: number;
  /** Summaries taken from an earlier version (or attempt) because their input had not changed. */
  reused: number;
  documentSummary: string | null;
  /** Paragraphs given a context by a summary call or from the cache. */
  contexts: number;
  /** Prose paragraphs left without a context (with a chat model: past a prompt's bounds, or skipped). */
  withoutContext: number;
  /** As in `SectionsDone`. */
  late: ReadonlySet<string>;
  /**
   * Offline: every node of the version in reading order with its index text as now written
   * (nothing changes it after the summaries), so embedding need not read it back.
   */
  indexTexts?: { id: string; index_text: string | null }[];
}

/**
 * Writes bottom-up summaries for one version (docs/spec.md#summaries): every section from its
 * children (paragraph text and child-section summaries), then the document from its sections'
 * titles and summaries. A section starts as soon as its subsections are done, deepest first, so
 * independent sections run concurrently (at most `concurrency` model calls at once). With a chat
 * model the same call also writes each of the node's prose paragraphs a contextual sentence
 * (docs/spec.md#contexts), prepended to its index text. Each summary is keyed by a hash of its
 * input and each context by the paragraph's text and place: unchanged sections of a new version
 * reuse both without a model call. Offline (`providers.chat` undefined) the summaries are
 * extractive (sentences quoted from the text) and there are no contexts. Each summarized node is
 * re-indexed with its summary (weight C).
 *
 * @example const { sections, modelCalls } = await summarizeVersion(db, providers, { documentId, version }, { concurrency: 8 });
 */
export async function summarizeVersion(
  db: Db,
  providers: Providers,
  ref: { documentId: string; version: number },
  options: SummarizeOptions = {},
): Promise<SummarizeResult> {
  const { root, nodes, stored } = await loadSummaryTree(db, ref, options.writes);
  const sections = sectionsOf(root);
  const chat = providers.chat;
  // This version's own summaries (an earlier attempt) over earlier versions'.
  const summaryCache = new Map([...(await previousSummaries(db, ref)), ...stored]);
  const contextCache = chat ? await previousContexts(db, ref.documentId) : new Map<string, string>();
  const limit = createLimiter(options.concurrency ?? DEFAULT_CONCURRENCY);

  const title = root.title ?? '';
  const late = new Set([root.id, ...root.children.filter(isPassage).map((p) => p.id)]);
  let modelCalls = 0;
  let reused = 0;
  let withoutContext = 0;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  let started = 0;
  /** Sections left for a later call: past the deadline, or above such a section. */
  const deferred = new Set<SummaryNode>();
  const pastDeadline = () =>
    options.deadline !== undefined && started >= concurrency && Date.now() > options.deadline;

  /** Summarizes one node whose subsections are done; returns its paragraphs' contexts. */
  const summarizeNode = async (node: SummaryNode): Promise<ContextUpdate[]> => {
    if (!chat) {
      const texts = offlineInput(node);
      node.key = summaryKey([`offline:${OFFLINE_METHOD_VERSION}`, node.node_type, node.title, texts]);
      const cached = summaryCache.get(node.key);
      if (cached !== undefined) reused += 1;
      node.summary = cached ?? (offlineSummary(node, texts) || null);
      return [];
    }
    const input = modelInput(node, PROMPT_LIMITS);
    const method = `chat:${chat.provider}:${CHAT_METHOD_VERSION}`;
    node.key = summaryKey([method, node.node_type, node.title, input.text]);
    const cached = summaryCache.get(node.key);
    let fresh: Map<number, string> | undefined;
    if (cached !== undefined) {
      reused += 1;
      node.summary = cached;
    } else {
      if (node.children.some((child) => deferred.has(child))) {
        deferred.add(node);
        return [];
      }
      // Checked when a slot is free: calls queued before the deadline do not start after it. The
      // document's one call, once every section is done, always starts.
      const result = await limit.run(async () => {
        if (node !== root && pastDeadline()) return undefined;
        started += 1;
        return callModel(chat, node, title, input.text);
      }, node.depth);
      if (!result) {
        deferred.add(node);
        return [];
      }
      modelCalls += result.calls;
      node.summary = result.summary;
      fresh = result.contexts;
    }
    const updates: ContextUpdate[] = [];
    input.passages.forEach((passage, i) => {
      const key = contextKey(title, node.path, passage.content ?? '');
      const context = fresh?.get(i + 1) ?? contextCache.get(key);
      if (context) updates.push({ id: passage.id, context, key });
    });
    const given = new Set(updates.map((u) => u.id));
    for (const child of node.children) {
      if (isPassage(child) && !given.has(child.id)) {
        withoutContext += 1;
        late.add(child.id);
      }
    }
    return updates;
  };

  const visit = async (node: SummaryNode): Promise<ContextUpdate[]> => {
    const below = await Promise.all(node.children.filter((c) => c.node_type === 'section').map(visit));
    return [...below.flat(), ...(await summarizeNode(node))];
  };
  const topLevel = await Promise.all(root.children.filter((c) => c.node_type === 'section').map(visit));
  const sectionContexts = topLevel.flat();
  if (deferred.size > 0) {
    // The summaries made so far are kept (the next call reuses them); the document waits.
    await writeSummaries(db, sections.filter((node) => !deferred.has(node) && node.key).map(updateOf));
    await writeContexts(db, sectionContexts);
    return {
      complete: false,
      sections: sections.length - deferred.size,
      modelCalls,
      reused,
      documentSummary: null,
      contexts: sectionContexts.length,
      withoutContext,
      late,
    };
  }

  const rootDone = summarizeNode(root);
  // Offline the document's summary is at hand at once: one update writes it with the sections'.
  const withSections = chat ? [] : [root];
  const written = (async () => {
    if (withSections.length > 0) await rootDone;
    await writeSummaries(db, [...sections, ...withSections].map(updateOf));
    await writeContexts(db, sectionContexts);
  })();
  const outline = sections.map((s) => ({ title: s.title ?? '', summary: s.summary, depth: s.depth }));
  const [rootContexts] = await Promise.all([
    rootDone,
    written,
    options.afterSections?.({ title, sections: outline, late, written }),
  ]);
  if (withSections.length === 0) await writeSummaries(db, [updateOf(root)]);
  await writeContexts(db, rootContexts);
  return {
    complete: true,
    sections: sections.length,
    modelCalls,
    reused,
    documentSummary: root.summary,
    contexts: sectionContexts.length + rootContexts.length,
    withoutContext,
    late,
    ...(!chat && {
      indexTexts: nodes.map((node) => ({
        id: node.id,
        index_text:
          node.node_type === 'section' || node.node_type === 'document'
            ? summaryIndexText(node)
            : node.index_text,
      })),
    }),
  };
}

function updateOf(node: SummaryNode): SummaryUpdate {
  return { id: node.id, title: node.title, summary: node.summary, key: node.key };
}

function offlineSummary(node: SummaryNode, texts: string[]): string {
  const limits = node.node_type === 'document' ? DOCUMENT_LIMITS : SECTION_LIMITS;
  return extractiveSummary({ title: node.title ?? undefined, texts, ...limits });
}

function callModel(chat: ChatModel, node: SummaryNode, documentTitle: string, content: string) {
  const isDocument = node.node_type === 'document';
  return summarizeWithContexts(chat, {
    kind: isDocument ? 'document' : 'section',
    title: node.title ?? '',
    location: [documentTitle, node.path].filter(Boolean).join(' > '),
    content,
  });
}

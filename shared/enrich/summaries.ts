import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import type { NodeType } from '#shared/db/schema.ts';
import { NotFoundError } from '#shared/errors.ts';
import { extractiveSummary } from '#shared/llm/offline/extractive-summary.ts';
import type { ChatModel, Providers } from '#shared/llm/types.ts';
import { createLimiter } from './limiter.ts';
import { fillPrompt, loadPrompt } from './prompt.ts';
import { previousSummaries, summaryKey } from './summary-cache.ts';
import { type SummaryUpdate, writeSummaries } from './write-summaries.ts';

/** Seed 000 §5.2.2: sections in 1-2 sentences, the document in 2-3. */
const SECTION_LIMITS = { maxSentences: 2, maxChars: 200 };
const DOCUMENT_LIMITS = { maxSentences: 3, maxChars: 300 };
/** Bounds one prompt's data; a section's first ~12k characters say what it is about. */
const MAX_PROMPT_CHARS = 12_000;
/** Model calls in flight when the caller does not say (`providers.chat.maxConcurrency`). */
const DEFAULT_CONCURRENCY = 4;
/** Bumped when prompts or extraction change, so cached summaries are not reused across methods. */
const METHOD_VERSION = 1;

interface TreeRow {
  id: string;
  parent_id: string | null;
  node_type: NodeType;
  depth: number;
  title: string | null;
  content: string | null;
  metadata: Record<string, unknown> | null;
}

interface Node extends TreeRow {
  children: Node[];
  summary: string | null;
  key: string;
}

export interface SummarizeResult {
  sections: number;
  /** Chat model calls made (0 offline). */
  modelCalls: number;
  /** Summaries taken from an earlier version (or attempt) because their input had not changed. */
  reused: number;
  documentSummary: string | null;
}

/**
 * Writes bottom-up summaries for one version (seed 000 §5.2.2): every section from its children
 * (paragraph text and child-section summaries), then the document from its sections' titles and
 * summaries. A section starts as soon as its subsections are done, so independent sections run
 * concurrently (at most `concurrency` model calls at once). Each summary is keyed by a hash of its
 * input: unchanged sections of a new version reuse the earlier summary without a model call.
 * Offline (`providers.chat` undefined) the summaries are extractive: sentences quoted from the text.
 * Each summarized node is re-indexed with its summary (weight C).
 *
 * @example const { sections, modelCalls } = await summarizeVersion(db, providers, { documentId, version }, { concurrency: 8 });
 */
export async function summarizeVersion(
  db: Db,
  providers: Providers,
  ref: { documentId: string; version: number },
  options: { concurrency?: number } = {},
): Promise<SummarizeResult> {
  const root = await loadTree(db, ref);
  const sections: Node[] = [];
  const collect = (node: Node) => {
    for (const child of node.children) {
      if (child.node_type === 'section') {
        sections.push(child);
        collect(child);
      }
    }
  };
  collect(root);

  const cache = await previousSummaries(db, ref.documentId);
  const limit = createLimiter(options.concurrency ?? DEFAULT_CONCURRENCY);
  const method = providers.chat
    ? `chat:${providers.chat.provider}:${METHOD_VERSION}`
    : `offline:${METHOD_VERSION}`;
  let modelCalls = 0;
  let reused = 0;
  const summarize = async (node: Node): Promise<void> => {
    await Promise.all(node.children.filter((c) => c.node_type === 'section').map(summarize));
    const chat = providers.chat;
    node.key = summaryKey([method, node.node_type, node.title, chat ? modelInput(node) : offlineInput(node)]);
    const cached = cache.get(node.key);
    if (cached !== undefined) {
      reused += 1;
      node.summary = cached;
    } else if (!chat) node.summary = offlineSummary(node) || null;
    else {
      node.summary = await limit(() => {
        modelCalls += 1;
        return modelSummary(chat, node);
      });
    }
  };
  await summarize(root);

  const updates: SummaryUpdate[] = [root, ...sections].map((n) => ({
    id: n.id,
    title: n.title,
    summary: n.summary,
    key: n.key,
  }));
  await writeSummaries(db, updates);
  return { sections: sections.length, modelCalls, reused, documentSummary: root.summary };
}

async function loadTree(db: Db, ref: { documentId: string; version: number }): Promise<Node> {
  const rows = await queryRows<TreeRow>(
    db,
    sql`SELECT id, parent_id, node_type, depth, title, content, metadata FROM nodes
        WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int
        ORDER BY ordinal`,
  );
  const byId = new Map<string, Node>(rows.map((r) => [r.id, { ...r, children: [], summary: null, key: '' }]));
  let root: Node | undefined;
  // Reading order lists each parent before its children and siblings by position.
  for (const node of byId.values()) {
    if (node.node_type === 'document') root = node;
    else if (node.parent_id) byId.get(node.parent_id)?.children.push(node);
  }
  if (!root) throw new NotFoundError(`document ${ref.documentId} has no nodes for version ${ref.version}`);
  return root;
}

/**
 * Prose an extract may quote: paragraphs (not code) and child summaries. Tables, code and image alt
 * text are left out: their "sentences" are rows and lines, not statements about the section.
 */
function offlineInput(node: Node): string[] {
  const texts: string[] = [];
  for (const child of node.children) {
    if (child.node_type === 'section' && child.summary) texts.push(child.summary);
    else if (child.node_type === 'paragraph' && child.content && child.metadata?.kind !== 'code') {
      texts.push(child.content);
    }
  }
  return texts;
}

function offlineSummary(node: Node): string {
  const limits = node.node_type === 'document' ? DOCUMENT_LIMITS : SECTION_LIMITS;
  return extractiveSummary({ title: node.title ?? undefined, texts: offlineInput(node), ...limits });
}

/** The data of a node's prompt: child section titles and summaries, paragraph and image text. */
function modelInput(node: Node): string {
  const lines = node.children.map((child) => {
    if (child.node_type === 'section') return `- ${child.title ?? ''}: ${child.summary ?? ''}`;
    if (child.node_type === 'image') return `[image: ${child.content ?? ''}]`;
    return child.content ?? '';
  });
  return lines
    .filter((line) => line.trim())
    .join('\n')
    .slice(0, MAX_PROMPT_CHARS);
}

async function modelSummary(chat: ChatModel, node: Node): Promise<string | null> {
  const data = modelInput(node);
  const prompt =
    node.node_type === 'document'
      ? fillPrompt(loadPrompt('summarize-document'), { title: node.title ?? '', sections: data })
      : fillPrompt(loadPrompt('summarize-section'), { title: node.title ?? '', content: data });
  const result = await chat.complete({
    role: 'summarize',
    system: loadPrompt('summarize-system'),
    messages: [{ role: 'user', content: prompt }],
  });
  return result.text.trim() || null;
}

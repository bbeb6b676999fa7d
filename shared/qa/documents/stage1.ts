import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatModel, TokenUsage } from '#shared/llm/types.ts';
import { pickAnswerSentences } from '#shared/text/answer.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { loadQaPrompt } from '../prompt.ts';
import { type AssetDeps, type CachedBlob, loadDocumentAssets, readCachedBlob } from './assets.ts';
import { buildDocumentContent } from './content.ts';
import { type DocumentBlock, shortDocId, splitIntoBlocks } from './markers.ts';

/** What Stage 1 learned from one document. */
export interface Stage1Result {
  documentId: string;
  name: string;
  version: number;
  shortId: string;
  blocks: DocumentBlock[];
  /** The structured reply (docs/spec.md#stage-1: document structure, answer, citations), with markers. */
  reply: string;
  /** Offline: the sentences quoted verbatim, with the marker of their paragraph. */
  quoted: { text: string; ref: string }[];
  usage?: TokenUsage & { model: string };
}

export interface Stage1Options {
  /** Version to read; default the document's current one. */
  version?: number;
}

/**
 * Stage 1 for one document (docs/spec.md#stage-1): its Markdown rendition and images (cache, else
 * the blob store), split into marked paragraphs and images, sent interleaved with the question to
 * the multimodal model (role `judge`), which replies with the document's structure, its answer and
 * its citations. Offline: the same reply built from the paragraphs' sentences that best match the
 * question, quoted verbatim. Throws when the document cannot be read or the model fails: the flow
 * skips that document.
 */
export async function readDocument(
  deps: AssetDeps,
  chat: ChatModel | undefined,
  question: string,
  documentId: string,
  options: Stage1Options = {},
): Promise<Stage1Result> {
  const assets = await loadDocumentAssets(deps, documentId, options.version);
  const shortId = shortDocId(documentId);
  const blocks = splitIntoBlocks(assets.markdown, shortId);
  const base = { documentId, name: assets.name, version: assets.version, shortId, blocks };
  if (!chat) return { ...base, ...offlineReply(question, assets.name, blocks) };

  const images = new Map<string, CachedBlob>();
  for (const block of blocks) {
    if (block.kind !== 'image' || images.has(block.filename)) continue;
    const row = assets.images.get(block.filename);
    if (!row) continue;
    const blob = await readCachedBlob(deps, row.objectKey, row.mime).catch(() => undefined);
    if (blob) images.set(block.filename, blob);
  }
  const result = await chat.complete({
    role: 'judge',
    system: loadQaPrompt('documents-stage1-system'),
    messages: [
      {
        role: 'user',
        content: [
          ...buildDocumentContent(assets.name, shortId, blocks, images),
          {
            type: 'text',
            text: fillPrompt(loadQaPrompt('documents-stage1'), { question, short_id: shortId }),
          },
        ],
      },
    ],
  });
  return { ...base, reply: result.text, quoted: [], usage: { ...result.usage, model: result.model } };
}

/**
 * The three-part reply (docs/spec.md#stage-1) without a model: headings as the structure, the best
 * sentences verbatim (images by their alt text).
 */
function offlineReply(
  question: string,
  name: string,
  blocks: DocumentBlock[],
): { reply: string; quoted: { text: string; ref: string }[] } {
  const texts = blocks.filter((b) => b.kind === 'text');
  // An image takes part by its alt text, so a question about a figure can cite the figure.
  const candidates = blocks.filter((b) => b.kind === 'text' || b.alt.trim());
  const picked = pickAnswerSentences(
    question,
    candidates.map((b, i) => ({ content: b.kind === 'text' ? b.text : b.alt, citation: i })),
    { maxSentences: 4 },
  );
  const quoted = picked.map((s) => ({ text: s.text, ref: candidates[s.citation]?.ref ?? '' }));
  const zh = hasCjk(question);
  const headings = texts.filter((b) => /^#{1,6}\s/.test(b.text));
  const imageCount = blocks.length - texts.length;
  const cited = [...new Set(picked.map((s) => s.citation))].flatMap((i) => candidates[i] ?? []);
  const reply = [
    '## 文档结构',
    zh
      ? `《${name}》：${texts.length} 个段落，${imageCount} 张图片。`
      : `${name}: ${texts.length} paragraphs, ${imageCount} images.`,
    ...headings.map((b) => `- [${b.ref}] ${b.text.replace(/^#+\s*/, '')}`),
    '',
    '## query的回复',
    ...(quoted.length
      ? quoted.map((q) => `> ${q.text} [${q.ref}]`)
      : [zh ? '本文档没有与问题相关的内容。' : 'This document does not address the question.']),
    '',
    '## 引用',
    ...cited.map((b) => `[${b.ref}] ${b.kind === 'text' ? b.text : b.alt}`),
  ].join('\n');
  return { reply, quoted };
}

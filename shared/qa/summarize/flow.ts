import type { AccessScope } from '#shared/access/scope.ts';
import type { Db } from '#shared/db/client.ts';
import { fillPrompt, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ChatModel, Providers } from '#shared/llm/types.ts';
import { extractiveSummary } from '#shared/text/extractive-summary.ts';
import { offlineSummaryNotice } from '#shared/text/offline-notice.ts';
import { hasCjk } from '#shared/text/segment.ts';
import { textDeltas } from '../deltas.ts';
import { quotedName } from '../document-name.ts';
import { loadQaPrompt } from '../prompt.ts';
import type { SummarizeEvent, SummarizeRequest } from './request.ts';
import { type DocumentOutline, loadDocumentOutline, loadTopic } from './sources.ts';

/** Characters of document text sent to the model when the document has no stored summaries. */
const MAX_TEXT_CHARS = 12_000;

/**
 * Summarizes a document (its outline of stored section summaries, or its text) or a topic (the
 * summaries of its documents) as a stream: `meta`, `progress`, `delta` text, `usage`, `references`
 * (the documents used) and `done` with the whole summary. With a chat model (role `summarize`) the
 * summary is written by it; offline it is made of the stored (extractive) summaries, labelled as such.
 * Only documents of the collections `access` reads are summarized or drawn on (a topic's others are
 * left out, as if they did not exist).
 *
 * @example for await (const e of summarize({ db, providers, access }, { document_id: id })) ...
 */
export async function* summarize(
  deps: { db: Db; providers: Providers; access: AccessScope },
  request: SummarizeRequest,
): AsyncGenerator<SummarizeEvent> {
  const chat = deps.providers.chat;
  const provider = deps.providers.label;
  let kind: 'document' | 'topic';
  let id: string;
  let name: string;
  let prompt: string;
  let offline: string;
  let used: { document_id: string; document_name: string; version: number }[];
  if (request.document_id) {
    const outline = await loadDocumentOutline(deps.db, deps.access, request.document_id, request.version);
    kind = 'document';
    id = outline.id;
    name = outline.name;
    yield { type: 'meta', data: { kind, id, name, provider, version: outline.version } };
    prompt = fillPrompt(loadQaPrompt('summarize-document'), {
      name: stripDelimiters(name).replace(/"/g, "'"),
      outline: stripDelimiters(outlineText(outline)),
    });
    offline = offlineDocumentSummary(outline);
    used = [{ document_id: id, document_name: name, version: outline.version }];
  } else {
    id = request.topic_id ?? '';
    const topic = await loadTopic(deps.db, deps.access, id);
    kind = 'topic';
    name = topic.name;
    yield { type: 'meta', data: { kind, id, name, provider } };
    prompt = fillPrompt(loadQaPrompt('summarize-topic'), {
      topic: name,
      documents: topic.documents
        .map(
          (d) =>
            `<document name="${stripDelimiters(d.name).replace(/"/g, "'")}">\n${stripDelimiters(d.summary)}\n</document>`,
        )
        .join('\n'),
    });
    offline = offlineTopicSummary(name, topic.description, topic.documents);
    used = topic.documents.map((d) => ({ document_id: d.id, document_name: d.name, version: d.version }));
  }
  yield { type: 'progress', data: { stage: 'summarize', message: `Summarizing ${name}` } };
  let summary = '';
  if (chat && used.length > 0) {
    for await (const event of streamSummary(chat, prompt)) {
      if (event.type === 'delta') summary += event.data.text;
      yield event;
    }
  } else {
    summary = offline;
    yield* textDeltas(summary);
  }
  yield { type: 'references', data: { documents: used } };
  yield { type: 'done', data: { summary, kind, id, name, provider } };
}

async function* streamSummary(chat: ChatModel, prompt: string): AsyncGenerator<SummarizeEvent> {
  for await (const event of chat.stream({
    role: 'summarize',
    messages: [{ role: 'user', content: prompt }],
  })) {
    if (event.type === 'delta') {
      if (event.text) yield { type: 'delta', data: { text: event.text } };
    } else yield { type: 'usage', data: { stage: 'summarize', ...event.usage, model: event.model } };
  }
}

/** The outline the model reads: the document summary, then each section's title and summary. */
function outlineText(outline: DocumentOutline): string {
  const sections = outline.sections.filter((s) => s.summary);
  if (sections.length === 0) return cut(outline.texts.join('\n\n'));
  return cut(
    [
      outline.summary,
      ...sections.map((s) => `${'#'.repeat(Math.min(6, s.depth + 1))} ${s.title}\n${s.summary}`),
    ]
      .filter(Boolean)
      .join('\n\n'),
  );
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}…` : text;
}

function offlineDocumentSummary(outline: DocumentOutline): string {
  const zh = hasCjk(outline.name + outline.summary + (outline.texts[0] ?? ''));
  const label = offlineSummaryNotice(zh, outline.name);
  const lead =
    outline.summary ||
    extractiveSummary({ title: outline.name, texts: outline.texts, maxSentences: 3, maxChars: 400 });
  const bullets = outline.sections
    .filter((s) => s.depth === 1 && s.summary)
    .slice(0, 8)
    .map((s) => `- **${s.title}**: ${s.summary}`);
  return [label, '', lead, ...(bullets.length ? ['', ...bullets] : [])].join('\n');
}

function offlineTopicSummary(
  topic: string,
  description: string,
  documents: { name: string; summary: string }[],
): string {
  const zh = hasCjk(topic + description);
  if (documents.length === 0)
    return zh ? `话题“${topic}”下还没有文档。` : `No document is linked to the topic “${topic}” yet.`;
  const label = `${offlineSummaryNotice(zh)}${
    zh ? `话题“${topic}”下的 ${documents.length} 篇文档：` : ` ${documents.length} document(s) on “${topic}”:`
  }`;
  return [
    label,
    ...(description ? ['', description] : []),
    '',
    ...documents.map((d) => `- ${quotedName(d.name, zh)}: ${d.summary || '—'}`),
  ].join('\n');
}

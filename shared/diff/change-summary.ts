import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { fillPrompt, readPromptFile, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ChatModel } from '#shared/llm/types.ts';
import { errorFields, log } from '#shared/log/logger.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import type { DocumentDiff, LeafChange, SectionChange } from './types.ts';
import { diffVersionPair } from './version-diff.ts';

/** Changes listed in an extractive summary (and given to the model): the rest are counted. */
const MAX_ITEMS = 6;
const MAX_QUOTE_CHARS = 160;
const MAX_PROMPT_CHARS = 12_000;

/**
 * A short "changes since the previous version", extracted from the diff: the counts, then the first
 * changes, each quoting its old and new words.
 *
 * @example extractiveChangeSummary(diff)
 * // '1 paragraph changed, 1 section added. Refund window: "14" → "30". Added section "Store credit".'
 */
export function extractiveChangeSummary(diff: DocumentDiff): string {
  const items = changeLines(diff, MAX_ITEMS, MAX_QUOTE_CHARS);
  if (items.length === 0)
    return diff.from.title !== diff.to.title
      ? `Title: "${diff.from.title}" → "${diff.to.title}".`
      : 'No change in the text.';
  return [countsLine(diff), ...items].join(' ');
}

/**
 * Describes the changes of `to` against the previous ready version and stores it on the version
 * (`document_versions.change_summary`): by the chat model when there is one (the extractive summary
 * when its call fails), else extractively. Nothing for a first version. Returns what was stored.
 */
export async function writeChangeSummary(
  db: Db,
  chat: ChatModel | undefined,
  ref: { documentId: string; version: number },
): Promise<{ summary: string | null; modelCalls: number }> {
  // Versions are numbered from 1: a first version has no previous one to ask for.
  if (ref.version <= 1) return { summary: null, modelCalls: 0 };
  const [previous] = await queryRows<{ version: number; key: string }>(
    db,
    sql`SELECT v.version, d.key FROM document_versions v JOIN documents d ON d.id = v.document_id
        WHERE v.document_id = ${ref.documentId}::uuid AND v.status = 'ready' AND v.version < ${ref.version}::int
        ORDER BY v.version DESC LIMIT 1`,
  );
  if (!previous) return { summary: null, modelCalls: 0 };
  const diff = await diffVersionPair(
    db,
    { documentId: ref.documentId, key: previous.key },
    Number(previous.version),
    ref.version,
  );
  let summary = extractiveChangeSummary(diff);
  let modelCalls = 0;
  if (chat && diff.sections.length > 0) {
    try {
      modelCalls = 1;
      summary = (await modelChangeSummary(chat, diff)) || summary;
    } catch (error) {
      log.warn('summarize: change summary by the model failed, extractive one kept', {
        documentId: ref.documentId,
        version: ref.version,
        ...errorFields(error),
      });
    }
  }
  await db.execute(
    sql`UPDATE document_versions SET change_summary = ${summary}
        WHERE document_id = ${ref.documentId}::uuid AND version = ${ref.version}::int`,
  );
  return { summary, modelCalls };
}

async function modelChangeSummary(chat: ChatModel, diff: DocumentDiff): Promise<string> {
  const changes = changeLines(diff, 40, 600).join('\n').slice(0, MAX_PROMPT_CHARS);
  const name = diff.key.slice(diff.key.lastIndexOf('/') + 1);
  const result = await chat.complete({
    role: 'summarize',
    messages: [
      {
        role: 'user',
        content: fillPrompt(readPromptFile('shared/diff/prompts', 'change-summary'), {
          name: stripDelimiters(name),
          changes: stripDelimiters(`${countsLine(diff)}\n${changes}`),
        }),
      },
    ],
  });
  return result.text.trim();
}

function countsLine(diff: DocumentDiff): string {
  const { sections: s, paragraphs: p, tables: t, images: i } = diff.summary;
  const parts = [
    count(p.changed, 'paragraph', 'changed'),
    count(p.added, 'paragraph', 'added'),
    count(p.removed, 'paragraph', 'removed'),
    count(t.added + t.removed + t.changed, 'table', 'changed'),
    count(i.added + i.removed + i.changed, 'image', 'changed'),
    count(s.added, 'section', 'added'),
    count(s.removed, 'section', 'removed'),
    count(s.renamed, 'section', 'renamed'),
    count(s.moved, 'section', 'moved'),
  ].filter(Boolean);
  return `${parts.join(', ')}.`;
}

function count(n: number, noun: string, verb: string): string {
  return n === 0 ? '' : `${n} ${noun}${n === 1 ? '' : 's'} ${verb}`;
}

/** One line per change, section events first in reading order, then leaf changes within. */
function changeLines(diff: DocumentDiff, max: number, quoteChars: number): string[] {
  const lines: string[] = [];
  for (const section of diff.sections) {
    lines.push(...sectionLines(section, quoteChars));
    if (lines.length >= max) break;
  }
  const rest = lines.length - max;
  return rest > 0 ? [...lines.slice(0, max), `(${rest} more.)`] : lines;
}

function sectionLines(section: SectionChange, quoteChars: number): string[] {
  const name = section.path.at(-1) ?? '';
  const from = section.fromPath?.at(-1) ?? '';
  switch (section.status) {
    case 'added':
      return [`Added section "${name}"${firstText(section.leaves, quoteChars)}.`];
    case 'removed':
      return [`Removed section "${name}".`];
    case 'renamed':
      return [
        `Renamed section "${from}" to "${name}".`,
        ...section.leaves.map((l) => leafLine(name, l, quoteChars)),
      ];
    case 'moved':
      return [
        `Moved section "${name}" (was under ${section.fromPath?.slice(0, -1).join(' > ') || 'the top'}).`,
        ...section.leaves.map((l) => leafLine(name, l, quoteChars)),
      ];
    default:
      return section.leaves.map((l) => leafLine(name, l, quoteChars));
  }
}

function leafLine(section: string, leaf: LeafChange, quoteChars: number): string {
  const where = section ? `${section}: ` : '';
  if (leaf.change === 'added') return `${where}added "${clip(leaf.to?.text ?? '', quoteChars)}".`;
  if (leaf.change === 'removed') return `${where}removed "${clip(leaf.from?.text ?? '', quoteChars)}".`;
  const deleted = (leaf.words ?? []).filter((w) => w.op === 'delete').map((w) => w.text.trim());
  const inserted = (leaf.words ?? []).filter((w) => w.op === 'insert').map((w) => w.text.trim());
  if (leaf.words && deleted.length === 0) return `${where}inserted "${inserted.join(' … ')}".`;
  if (leaf.words && inserted.length === 0) return `${where}deleted "${deleted.join(' … ')}".`;
  if (!leaf.words || deleted.join(' ').length + inserted.join(' ').length > quoteChars) {
    return `${where}"${clip(leaf.from?.text ?? '', quoteChars)}" → "${clip(leaf.to?.text ?? '', quoteChars)}".`;
  }
  return `${where}"${deleted.join(' … ')}" → "${inserted.join(' … ')}".`;
}

function firstText(leaves: readonly LeafChange[], quoteChars: number): string {
  const text = leaves.find((l) => l.to?.text)?.to?.text;
  return text ? `: "${clip(text, quoteChars)}"` : '';
}

function clip(text: string, max: number): string {
  const flat = collapseSpaces(text);
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

import type { SQL } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { NotFoundError } from '#shared/errors.ts';
import { PATH_SEPARATOR } from '#shared/index/flatten.ts';
import { readVersionTree, type TreeNodeRow } from '#shared/index/version-nodes.ts';

/** A node of one version's tree, with what summarizing it produced. */
export interface SummaryNode extends TreeNodeRow {
  children: SummaryNode[];
  /** Section titles from the document down to this node (a leaf: its section's path). */
  path: string;
  summary: string | null;
  /** The hash of the summary's input (see `summaryKey`). */
  key: string;
}

/**
 * One version's tree, in reading order under its document node (its summaries cleared), every
 * node in reading order, and the summaries its rows held already (an earlier attempt), by key.
 * `writes` go with the read.
 */
export async function loadSummaryTree(
  db: Db,
  ref: { documentId: string; version: number },
  writes: readonly SQL[] = [],
): Promise<{ root: SummaryNode; nodes: SummaryNode[]; stored: Map<string, string> }> {
  const rows = await readVersionTree(db, ref, writes);
  const stored = new Map<string, string>();
  const nodes: SummaryNode[] = [];
  const byId = new Map<string, SummaryNode>();
  const titles = new Map<string, string[]>();
  let root: SummaryNode | undefined;
  // Reading order lists each parent before its children and siblings by position.
  for (const row of rows) {
    const parentTitles = row.parent_id ? (titles.get(row.parent_id) ?? []) : [];
    const own = row.node_type === 'section' ? [...parentTitles, row.title ?? ''] : parentTitles;
    titles.set(row.id, own);
    const key = row.metadata?.summaryKey;
    if (
      row.summary !== null &&
      typeof key === 'string' &&
      (row.node_type === 'section' || row.node_type === 'document')
    )
      stored.set(key, row.summary);
    const node: SummaryNode = {
      ...row,
      children: [],
      path: own.join(PATH_SEPARATOR),
      summary: null,
      key: '',
    };
    byId.set(row.id, node);
    nodes.push(node);
    if (row.node_type === 'document') root = node;
    else if (row.parent_id) byId.get(row.parent_id)?.children.push(node);
  }
  if (!root) throw new NotFoundError(`document ${ref.documentId} has no nodes for version ${ref.version}`);
  return { root, nodes, stored };
}

/** Sections of the tree in reading order. */
export function sectionsOf(root: SummaryNode): SummaryNode[] {
  const sections: SummaryNode[] = [];
  const collect = (node: SummaryNode) => {
    for (const child of node.children) {
      if (child.node_type === 'section') {
        sections.push(child);
        collect(child);
      }
    }
  };
  collect(root);
  return sections;
}

/** A prose paragraph (not code, not empty): what gets a contextual sentence. */
export function isPassage(node: SummaryNode): boolean {
  return node.node_type === 'paragraph' && node.metadata?.kind !== 'code' && Boolean(node.content?.trim());
}

/**
 * A reader's comment on the document (Word and PowerPoint comments, `metadata.kind: 'comment'`):
 * searchable like any paragraph, but not what the document says, so left out of its summaries.
 */
export function isComment(node: SummaryNode): boolean {
  return node.metadata?.kind === 'comment';
}

/**
 * Prose an extract may quote: paragraphs (not code, not comments) and child summaries. Tables, code and image alt
 * text are left out: their "sentences" are rows and lines, not statements about the section.
 */
export function offlineInput(node: SummaryNode): string[] {
  const texts: string[] = [];
  for (const child of node.children) {
    if (child.node_type === 'section' && child.summary) texts.push(child.summary);
    else if (isPassage(child) && !isComment(child) && child.content) {
      // Spreadsheet rows read as "column: value" lines; their empty cells say nothing worth summarizing.
      const filled = child.metadata?.kind === 'rows' ? withoutEmptyFields(child.content) : child.content;
      if (filled) texts.push(filled);
    }
  }
  return texts;
}

/** A "column: value" line whose value is empty or only a dash placeholder ("Column H: —"). */
const EMPTY_FIELD = /^[^:]{1,80}:\s*[—–-]*\s*$/;

/**
 * A spreadsheet row's "column: value" lines without the empty cells, so a summary never quotes
 * "Column H: — Column G: —".
 *
 * @example withoutEmptyFields('Name: Ada\nColumn H: —') // 'Name: Ada'
 */
export function withoutEmptyFields(text: string): string {
  const lines = text.split('\n').filter((line) => !EMPTY_FIELD.test(line));
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The data of a node's prompt: child section titles and summaries, table and image text, and its
 * prose paragraphs numbered `[1]`, `[2]`, ... (the passages the model writes contexts for), within
 * `maxChars` and `maxPassages`. Paragraphs past those bounds are left out of `passages` (the caller
 * contextualizes them separately); past `maxChars` nothing more is included.
 */
export function modelInput(
  node: SummaryNode,
  limits: { maxChars: number; maxPassages: number },
): { text: string; passages: SummaryNode[] } {
  const lines: string[] = [];
  const passages: SummaryNode[] = [];
  let chars = 0;
  for (const child of node.children) {
    if (isComment(child)) continue;
    let line: string;
    if (child.node_type === 'section') line = `- ${child.title ?? ''}: ${child.summary ?? ''}`;
    else if (child.node_type === 'image') line = `[image: ${child.content ?? ''}]`;
    else if (isPassage(child) && passages.length < limits.maxPassages) {
      passages.push(child);
      line = `[${passages.length}] ${child.content ?? ''}`;
    } else line = child.content ?? '';
    if (!line.trim()) continue;
    lines.push(line.slice(0, limits.maxChars - chars));
    chars += line.length + 1;
    if (chars >= limits.maxChars) break;
  }
  return { text: lines.join('\n'), passages };
}

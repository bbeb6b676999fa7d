import { z } from 'zod';
import { NotFoundError } from '#shared/errors.ts';
import { stripDelimiters } from '#shared/llm/prompt-files.ts';
import { hydrateHits } from '#shared/search/hydrate.ts';
import { getChildren, getContextWindow, getNode, type NodeView } from '#shared/search/nodes.ts';
import { LEAF_TYPES } from '#shared/search/scope.ts';
import {
  type DocumentStructure,
  getDocumentStructure,
  type StructureSection,
} from '#shared/search/structure.ts';
import type { ToolContext } from '../types.ts';
import { attribute, clip } from './format.ts';
import { gatherHits } from './gather.ts';
import { defineTool } from './tool.ts';

const nodeId = z.uuid().describe('A node id from earlier results');
const LEAVES = new Set<string>(LEAF_TYPES);
const MAX_OUTLINE_LINES = 80;

/** The node, when its document is inside the request's scope. */
async function scopedNode(ctx: ToolContext, id: string): Promise<NodeView> {
  const node = await getNode(ctx.deps.db, ctx.deps.access, id);
  const { documentIds } = ctx.state.context.filters;
  if (documentIds && !documentIds.includes(node.documentId)) {
    throw new NotFoundError(`node ${id} is outside the documents this question is limited to`);
  }
  return node;
}

async function leavesAsHits(ctx: ToolContext, nodes: NodeView[]) {
  const leaves = nodes.filter((n) => LEAVES.has(n.nodeType));
  return hydrateHits(
    ctx.deps.db,
    ctx.deps.access,
    leaves.map((n) => ({ nodeId: n.id, score: 0 })),
  );
}

export const nodeContentTool = defineTool({
  name: 'get_node_content',
  description:
    'The full content of a node (a passage, or a section with its title and summary) with its section path. Use when a result snippet is not detailed enough.',
  input: z.object({ node_id: nodeId }),
  async run(ctx, input) {
    const node = await scopedNode(ctx, input.node_id);
    if (LEAVES.has(node.nodeType)) {
      ctx.state.depthExplored += 1;
      return gatherHits(ctx, await leavesAsHits(ctx, [node]), 'browse', 'passage');
    }
    const text = `<document kind="${node.nodeType}" node_id="${node.id}" title="${attribute(node.title ?? '')}">\n${clip(stripDelimiters(node.summary ?? node.content ?? ''), 1500)}\n</document>`;
    return {
      kind: 'browse',
      observation: text,
      summary: `Section "${node.title ?? ''}".`,
      found: 1,
      added: 0,
    };
  },
});

export const sectionChildrenTool = defineTool({
  name: 'get_section_children',
  description:
    'The children of a section (sub-sections with their summaries, and passages) in document order. Use to explore a topic in depth.',
  input: z.object({ node_id: nodeId }),
  async run(ctx, input) {
    await scopedNode(ctx, input.node_id);
    const children = await getChildren(ctx.deps.db, ctx.deps.access, input.node_id);
    ctx.state.depthExplored += 1;
    const sections = children
      .filter((c) => c.nodeType === 'section')
      .map(
        (c) =>
          `- section node_id=${c.id} "${attribute(c.title ?? '')}": ${clip(attribute(c.summary ?? ''), 200)}`,
      );
    const outcome = await gatherHits(
      ctx,
      (await leavesAsHits(ctx, children)).slice(0, 12),
      'browse',
      'passage(s)',
    );
    const observation = [sections.length ? `Sub-sections:\n${sections.join('\n')}` : '', outcome.observation]
      .filter(Boolean)
      .join('\n');
    return {
      ...outcome,
      observation,
      found: children.length,
      summary: `${sections.length} sub-section(s); ${outcome.summary}`,
    };
  },
});

export const contextWindowTool = defineTool({
  name: 'get_context_window',
  description:
    'The passages just before and after a passage in reading order: use when a passage seems cut off or refers to something nearby ("it", "the table below").',
  input: z.object({ node_id: nodeId, window: z.number().int().min(1).max(3).default(1) }),
  async run(ctx, input) {
    await scopedNode(ctx, input.node_id);
    const nodes = await getContextWindow(
      ctx.deps.db,
      ctx.deps.access,
      input.node_id,
      input.window,
      input.window,
    );
    ctx.state.depthExplored += 1;
    return gatherHits(ctx, await leavesAsHits(ctx, nodes), 'browse', 'passage(s) around it');
  },
});

export const documentStructureTool = defineTool({
  name: 'get_document_structure',
  description:
    'The section tree of a document (titles, summaries, categories, node ids). Use for structural questions ("what does chapter 3 cover") and to find where to look.',
  input: z.object({ document_id: z.uuid() }),
  async run(ctx, input) {
    const { documentIds, version } = ctx.state.context.filters;
    if (documentIds && !documentIds.includes(input.document_id)) {
      throw new NotFoundError(
        `document ${input.document_id} is outside the documents this question is limited to`,
      );
    }
    const structure = await getDocumentStructure(ctx.deps.db, ctx.deps.access, input.document_id, version);
    const lines = outline(structure);
    return {
      kind: 'browse',
      observation: `<document kind="structure" document_id="${structure.documentId}" name="${attribute(structure.filename)}">\n${lines.join('\n')}\n</document>`,
      summary: `Structure of ${structure.filename}: ${structure.counts.sections} section(s), ${structure.counts.paragraphs} paragraph(s).`,
      found: structure.counts.sections,
      added: 0,
    };
  },
});

function outline(structure: DocumentStructure): string[] {
  const lines = [
    `${attribute(structure.title)}${structure.summary ? `: ${clip(attribute(structure.summary), 300)}` : ''}`,
  ];
  const walk = (sections: StructureSection[], depth: number) => {
    for (const s of sections) {
      if (lines.length >= MAX_OUTLINE_LINES) return;
      const summary = s.summary ? ` — ${clip(attribute(s.summary), 160)}` : '';
      lines.push(
        `${'  '.repeat(depth)}- ${attribute(s.title)} [node_id=${s.id}, ${s.category ?? 'other'}, ${s.counts.paragraphs} paragraph(s)]${summary}`,
      );
      walk(s.children, depth + 1);
    }
  };
  walk(structure.sections, 0);
  return lines;
}

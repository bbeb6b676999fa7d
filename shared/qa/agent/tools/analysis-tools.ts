import { z } from 'zod';
import { fillPrompt } from '#shared/llm/prompt-files.ts';
import { relatedDocuments } from '#shared/search/related.ts';
import { pickAnswerSentences } from '#shared/text/answer.ts';
import { answerContexts } from '../../answer-contexts.ts';
import { loadQaPrompt, passagesBlock } from '../../prompt.ts';
import { findNumericContradictions, type Statement } from '../consistency.ts';
import type { Contradiction, ToolContext, ToolOutcome } from '../types.ts';
import { attribute } from './format.ts';
import { defineTool } from './tool.ts';

const MAX_PASSAGES = 12;

export const relatedDocumentsTool = defineTool({
  name: 'get_related_documents',
  description:
    'Documents that share topics with a document, with a relatedness score. Use for multi-hop questions whose answer may span several documents.',
  input: z.object({ document_id: z.uuid() }),
  async run(ctx, input): Promise<ToolOutcome> {
    const related = await relatedDocuments(ctx.deps.db, ctx.deps.access, input.document_id, {
      within: ctx.state.context.filters.documentIds,
    });
    const lines = related.map(
      (d) =>
        `- document_id=${d.documentId} "${attribute(d.filename)}" score=${d.score.toFixed(2)} shared topics: ${d.topics.map(attribute).join(', ')}`,
    );
    return {
      kind: 'related',
      observation: lines.length
        ? `Related documents:\n${lines.join('\n')}`
        : 'No related document shares a topic with it.',
      summary: lines.length
        ? `${related.length} related document(s): ${related
            .slice(0, 3)
            .map((d) => d.filename)
            .join(', ')}.`
        : 'No related document.',
      found: related.length,
      added: 0,
    };
  },
});

/** The evidence sentences that bear on the question, with their passages: what gets checked by default. */
export function evidenceStatements(ctx: ToolContext, focus: string, max = 8): Statement[] {
  const hits = ctx.state.evidence.hits;
  return pickAnswerSentences(focus, answerContexts(hits), { maxSentences: max, maxChars: 4000 }).map((s) => ({
    text: s.text,
    citation: s.citation,
    documentId: hits[s.citation - 1]?.documentId ?? '',
  }));
}

const judged = z.object({
  contradictions: z
    .array(
      z.object({
        first: z.string(),
        second: z.string(),
        citations: z.array(z.number().int()).default([]),
        reason: z.string(),
      }),
    )
    .max(10),
});

export const verifyConsistencyTool = defineTool({
  name: 'verify_consistency',
  description:
    'Checks whether the gathered information is consistent (no conflicting numbers, dates or claims between documents). Use before the final answer when sources from several documents are involved.',
  input: z.object({
    statements: z
      .array(z.string().min(1).max(1000))
      .max(10)
      .optional()
      .describe('Statements to check; default: the key evidence'),
  }),
  async run(ctx, input): Promise<ToolOutcome> {
    ctx.state.consistencyChecked = true;
    const statements = evidenceStatements(ctx, ctx.state.context.question);
    const chat = ctx.deps.providers.chat;
    let contradictions: Contradiction[];
    if (chat) {
      const hits = ctx.state.evidence.hits.slice(0, MAX_PASSAGES);
      const prompt = fillPrompt(loadQaPrompt('agent-consistency'), {
        contexts: passagesBlock(
          hits.map((hit, i) => ({ citation: i + 1, source: hit.path, content: hit.content })),
        ),
        statements: (input.statements ?? statements.map((s) => `${s.text} [${s.citation}]`))
          .map((s) => `- ${s}`)
          .join('\n'),
      });
      const result = await chat.structured(
        { role: 'judge', messages: [{ role: 'user', content: prompt }] },
        judged,
      );
      contradictions = result.value.contradictions;
    } else {
      contradictions = findNumericContradictions(statements);
    }
    ctx.state.contradictions.push(...contradictions);
    const lines = contradictions.map(
      (c) => `- "${c.first}" vs "${c.second}" ${c.citations.map((n) => `[${n}]`).join('')}: ${c.reason}`,
    );
    return {
      kind: 'analysis',
      observation: lines.length
        ? `Contradictions found:\n${lines.join('\n')}\nCheck the original passages and explain the conflict in the answer.`
        : `The ${statements.length} key statement(s) are consistent.`,
      summary: lines.length
        ? `${contradictions.length} contradiction(s) found: ${contradictions[0]?.reason}.`
        : 'No contradiction found.',
      found: contradictions.length,
      added: 0,
      contradictions: contradictions.length,
    };
  },
});

export const summarizeFindingsTool = defineTool({
  name: 'summarize_findings',
  description:
    'Consolidates what has been gathered so far around a focus, with passage numbers. Use when the context grows large.',
  input: z.object({ focus: z.string().min(1).max(500) }),
  async run(ctx, input): Promise<ToolOutcome> {
    const chat = ctx.deps.providers.chat;
    let text: string;
    if (chat) {
      const hits = ctx.state.evidence.hits.slice(0, MAX_PASSAGES);
      const prompt = fillPrompt(loadQaPrompt('agent-summarize'), {
        contexts: passagesBlock(
          hits.map((hit, i) => ({ citation: i + 1, source: hit.path, content: hit.content })),
        ),
        focus: input.focus,
      });
      text = (
        await chat.complete({ role: 'summarize', messages: [{ role: 'user', content: prompt }] })
      ).text.trim();
    } else {
      text = evidenceStatements(ctx, input.focus, 5)
        .map((s) => `- ${s.text} [${s.citation}]`)
        .join('\n');
    }
    ctx.state.findings = text;
    return {
      kind: 'analysis',
      observation: text ? `Findings so far:\n${text}` : 'Nothing gathered yet bears on that focus.',
      summary: text ? `Summarized ${text.split('\n').length} finding(s).` : 'No findings yet.',
      found: text ? text.split('\n').length : 0,
      added: 0,
    };
  },
});

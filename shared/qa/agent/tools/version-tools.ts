import { z } from 'zod';
import { NotFoundError } from '#shared/errors.ts';
import { stripDelimiters } from '#shared/llm/prompt-files.ts';
import { compareVersions, extractiveComparisonAnswer } from '../../versions/compare.ts';
import { gatherHits } from './gather.ts';
import { defineTool } from './tool.ts';

export const compareVersionsTool = defineTool({
  name: 'compare_versions',
  description:
    'What changed in one document between two of its versions (default: the previous and the current one): sections added, removed, renamed or moved, and the changed passages of both versions, old and new, each citable with its version. Use for questions such as "what changed in X" or "how did X change between versions".',
  input: z.object({
    document_id: z.uuid().describe('The document, from earlier results'),
    from: z.number().int().positive().optional().describe('The old version'),
    to: z.number().int().positive().optional().describe('The new version'),
  }),
  async run(ctx, input) {
    const { documentIds } = ctx.state.context.filters;
    if (documentIds && !documentIds.includes(input.document_id)) {
      throw new NotFoundError(
        `document ${input.document_id} is outside the documents this question is limited to`,
      );
    }
    const versions = [input.from, input.to].filter((v): v is number => v !== undefined);
    const comparison = await compareVersions(
      ctx.deps,
      input.document_id,
      versions,
      ctx.state.context.question,
    );
    const outcome = await gatherHits(ctx, comparison.passages, 'browse', 'changed passage(s)');
    const name = comparison.passages[0]?.documentName ?? comparison.diff.key;
    return {
      ...outcome,
      observation: `${stripDelimiters(extractiveComparisonAnswer(comparison, name))}\n(The [n] above number this list only; cite the passages below by their index.)\n${outcome.observation}`,
      summary: `Compared versions ${comparison.diff.from.version} and ${comparison.diff.to.version}: ${outcome.summary}`,
    };
  },
});

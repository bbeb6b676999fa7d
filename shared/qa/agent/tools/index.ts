import { z } from 'zod';
import type { ToolSpec } from '#shared/llm/types.ts';
import type { AgentTool } from '../types.ts';
import { relatedDocumentsTool, summarizeFindingsTool, verifyConsistencyTool } from './analysis-tools.ts';
import {
  contextWindowTool,
  documentStructureTool,
  nodeContentTool,
  sectionChildrenTool,
} from './browse-tools.ts';
import {
  fulltextSearchTool,
  keywordSearchTool,
  sectionSearchTool,
  semanticSearchTool,
} from './search-tools.ts';
import { queryTableTool } from './table-tools.ts';
import { compareVersionsTool } from './version-tools.ts';

export type { AgentTool, ToolKind, ToolOutcome } from '../types.ts';

/** The terminal tool: the loop ends with its answer (docs/spec.md#tools). */
export const FINAL_ANSWER = 'final_answer';

export const finalAnswerInput = z.object({
  answer: z.string().min(1).max(20_000).describe('The answer, citing passages by their index as [n]'),
  confidence: z.enum(['high', 'medium', 'low']).default('medium'),
  sources: z.array(z.number().int().positive()).max(50).optional().describe('Indexes of the passages used'),
});

export type FinalAnswerInput = z.infer<typeof finalAnswerInput>;

/** Every tool the agent can run, by name. */
export const AGENT_TOOLS: ReadonlyMap<string, AgentTool<never>> = new Map(
  (
    [
      keywordSearchTool,
      fulltextSearchTool,
      semanticSearchTool,
      sectionSearchTool,
      nodeContentTool,
      sectionChildrenTool,
      contextWindowTool,
      documentStructureTool,
      relatedDocumentsTool,
      verifyConsistencyTool,
      summarizeFindingsTool,
      compareVersionsTool,
      queryTableTool,
    ] as AgentTool<never>[]
  ).map((tool) => [tool.name, tool]),
);

/** The tools as native tool specs (JSON schemas of their inputs), final_answer last. */
export function toolSpecs(): ToolSpec[] {
  const specs = [...AGENT_TOOLS.values()].map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input as z.ZodType, { io: 'input' }) as Record<string, unknown>,
  }));
  specs.push({
    name: FINAL_ANSWER,
    description: 'Gives the final answer once the gathered passages suffice (or nothing more can be found).',
    inputSchema: z.toJSONSchema(finalAnswerInput, { io: 'input' }) as Record<string, unknown>,
  });
  return specs;
}

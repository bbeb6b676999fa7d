import type { AgentTool } from '../types.ts';

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<I>(tool: AgentTool<I>): AgentTool<I> {
  return tool;
}

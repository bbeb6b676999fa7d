import type { ZodType } from 'zod';
import type { ToolContext } from '../state.ts';

export type ToolKind = 'search' | 'browse' | 'related' | 'analysis';

/** What a tool call produced: the text the model reads, a line for the trace, and the facts the evaluator weighs. */
export interface ToolOutcome {
  kind: ToolKind;
  /** For the model: results with document text delimited as data. */
  observation: string;
  /** One line for the trace. */
  summary: string;
  /** Results returned (passages, nodes, documents, contradictions). */
  found: number;
  /** Passages new to the evidence. */
  added: number;
  /** Best cosine relevance among the passages returned (search tools). */
  bestRelevance?: number;
  /** verify_consistency: contradictions found. */
  contradictions?: number;
}

/** A tool of the agent (docs/spec.md#tools): its name, description, input schema and action. */
export interface AgentTool<I = unknown> {
  name: string;
  description: string;
  input: ZodType<I>;
  run(ctx: ToolContext, input: I): Promise<ToolOutcome>;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<I>(tool: AgentTool<I>): AgentTool<I> {
  return tool;
}

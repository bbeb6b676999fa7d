import type { ZodType } from 'zod';
import type { SearchFilters } from '#shared/search/types.ts';
import type { QaDeps } from '../deps.ts';
import type { AskRequest } from '../request.ts';
import type { Evidence } from './evidence.ts';
import type { Route } from './route.ts';

/**
 * The agent's types (docs/spec.md#agent-loop) in one place: what the loop is asked (a read-only
 * context), what it owns and grows (its state: evidence, calls, evaluations), what tools take and
 * return, and the evaluator's feedback. Nothing here imports the loop, the tools or the evaluator.
 */

/** What the loop is asked: fixed from the first iteration to the answer. */
export interface AgentContext {
  readonly question: string;
  readonly request: AskRequest;
  /** The request's scope; tools narrow it further, never widen it. */
  readonly filters: SearchFilters;
  readonly route: Route;
  readonly maxIterations: number;
}

/** A statement pair the consistency check found contradicting, with the passages they come from. */
export interface Contradiction {
  first: string;
  second: string;
  citations: number[];
  reason: string;
}

/** The agent's working memory: the read-only context and the evidence the loop owns. */
export interface AgentState {
  readonly context: AgentContext;
  evidence: Evidence;
  iteration: number;
  /** Tool calls made so far, as `name(json input)` signatures (so no call is repeated). */
  calls: string[];
  evaluations: Evaluation[];
  strategy?: StrategyHint;
  /** How many browse steps (context windows, node contents, children) went deeper. */
  depthExplored: number;
  /** 0..1: the share of the question's terms that the best extract of the evidence contains. */
  infoDensity: number;
  /** Terms found in the evidence that lead to a next hop (names, codes), for multi-hop questions. */
  followUps: string[];
  contradictions: Contradiction[];
  consistencyChecked: boolean;
  findings?: string;
  /** Documents whose background has been shown to the model. */
  backgrounds: Set<string>;
}

/** What a tool needs: the search dependencies and the agent's state. */
export interface ToolContext {
  deps: QaDeps;
  state: AgentState;
}

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

export type ResultQuality = 'good' | 'empty' | 'low_relevance' | 'contradictions_found' | 'consistent';
export type Suggestion =
  | 'try_different_query'
  | 'refine_query_or_explore'
  | 'try_related_node'
  | 'resolve_contradictions'
  | 'ready_to_answer';

/** The feedback on one tool call (docs/spec.md#feedback). */
export interface Evaluation {
  tool: string;
  quality: ResultQuality;
  improvement?: 'expanded' | 'deepened';
  suggestion?: Suggestion;
}

/** The adaptive strategy's next move and the hint the planner gets (docs/spec.md#feedback). */
export interface StrategyHint {
  strategy: 'refine_query' | 'explore_deeper' | 'broaden_search' | 'verify_sources' | 'finalize' | 'continue';
  hint?: string;
}

import type { SearchFilters } from '#shared/search/types.ts';
import type { QaDeps } from '../deps.ts';
import type { AskRequest } from '../request.ts';
import type { Evaluation, StrategyHint } from './evaluate.ts';
import type { Evidence } from './evidence.ts';
import type { Route } from './route.ts';

/** A statement pair the consistency check found contradicting, with the passages they come from. */
export interface Contradiction {
  first: string;
  second: string;
  citations: number[];
  reason: string;
}

/** The agent's working memory (docs/spec.md#agent-loop). */
export interface AgentState {
  question: string;
  request: AskRequest;
  /** The request's scope; tools narrow it further, never widen it. */
  filters: SearchFilters;
  route: Route;
  evidence: Evidence;
  iteration: number;
  maxIterations: number;
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

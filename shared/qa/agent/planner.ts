import type { QaEvent } from '../events.ts';
import type { AgentState } from './types.ts';

/** A tool call the planner chose. For `final_answer`, no input means: synthesize from the evidence. */
export interface PlannedCall {
  id: string;
  name: string;
  input: unknown;
}

/** One turn of the planner: its reasoning and the tools it calls. */
export interface PlannedStep {
  thought: string;
  calls: PlannedCall[];
  /** The `usage` event of the model call, when a model planned. */
  usage?: QaEvent;
}

/** What a call gave back, as the planner reads it (observation and feedback, or the error). */
export interface CallResult {
  call: PlannedCall;
  content: string;
  isError: boolean;
}

/** Decides the agent's next step: a model (native tools or JSON actions) or the offline rules. */
export interface Planner {
  next(state: AgentState): Promise<PlannedStep>;
  /** Tells the planner what its calls returned. */
  record(step: PlannedStep, results: CallResult[]): void;
}

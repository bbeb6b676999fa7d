import { Evidence } from './evidence.ts';
import type { AgentContext, AgentState } from './types.ts';

/**
 * The state an agent run starts from: its read-only context, no evidence, nothing called, judged or
 * explored yet. The loop builds its state with it, and so can a test of one tool.
 *
 * @example const state = initialAgentState({ question, request, filters: {}, route, maxIterations: 5 });
 */
export function initialAgentState(context: AgentContext): AgentState {
  return {
    context,
    evidence: new Evidence(),
    iteration: 0,
    calls: [],
    evaluations: [],
    depthExplored: 0,
    infoDensity: 0,
    followUps: [],
    contradictions: [],
    consistencyChecked: false,
    backgrounds: new Set(),
  };
}

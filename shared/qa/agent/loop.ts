import { DropQAError, ProviderError, reasonOf } from '#shared/errors.ts';
import type { SearchHit } from '#shared/search/types.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import type { AskRequest } from '../request.ts';
import { requestFilters } from '../retrieve.ts';
import type { TraceRecorder } from '../trace.ts';
import { answerWithoutPlanner } from './degrade.ts';
import { adaptiveStrategy, evaluateOutcome, infoDensity } from './evaluate.ts';
import { followUpTerms, isMultiHop } from './follow-ups.ts';
import { initialAgentState } from './initial-state.ts';
import { JsonActionPlanner, NativeToolPlanner } from './model-planner.ts';
import { OfflinePlanner, signature } from './offline-planner.ts';
import type { CallResult, PlannedCall, PlannedStep, Planner } from './planner.ts';
import { routeIntent } from './route-model.ts';
import { synthesize } from './synthesize.ts';
import { AGENT_TOOLS, FINAL_ANSWER, type FinalAnswerInput, finalAnswerInput } from './tools/index.ts';
import type { AgentState } from './types.ts';

/** Default iteration limit (docs/spec.md#agent-loop). */
export const DEFAULT_MAX_ITERATIONS = 5;

export interface AgentStart {
  /** Passages the standard retrieval found (auto mode), the agent's first evidence. */
  hits?: SearchHit[];
  /** Why the standard retrieval did not suffice (auto mode). */
  reason?: string;
  topics?: string[];
  signal?: AbortSignal;
}

/** The planner for the providers in force: native tools, JSON actions, or the offline rules. */
export function plannerFor(deps: QaDeps): Planner {
  const chat = deps.providers.chat;
  if (!chat) return new OfflinePlanner();
  return deps.qa?.toolProtocol === 'json' ? new JsonActionPlanner(chat) : new NativeToolPlanner(chat);
}

/**
 * The agent loop (docs/spec.md#agent-loop): routes the question (one document or the
 * corpus; by the model when there is one, see `routeIntent`), then up to `maxIterations` times plans (thought), runs each tool (action) and reports its
 * result (observation), evaluates it and sets the strategy hint the planner sees next. Ends with the
 * planner's final_answer, offline as soon as the strategy says finalize, or, at the limit, with a
 * forced synthesis of low confidence. When the model fails to plan, the answer degrades to the
 * standard retrieval and an extractive answer (`answerWithoutPlanner`). Every step streams as `trace`.
 */
export async function* agentLoop(
  deps: QaDeps,
  request: AskRequest,
  trace: TraceRecorder,
  start: AgentStart = {},
): AsyncGenerator<QaEvent> {
  const filters = requestFilters(request);
  const routed = await routeIntent(
    deps.db,
    deps.qa?.routing === 'rules' ? undefined : deps.providers.chat,
    request.question,
    filters,
  );
  const state = initialAgentState({
    question: request.question,
    request,
    filters,
    route: routed.route,
    maxIterations: Math.max(1, deps.qa?.maxIterations ?? DEFAULT_MAX_ITERATIONS),
  });
  if (start.hits?.length) {
    state.evidence.add(start.hits);
    state.infoDensity = infoDensity(state.context.question, state.evidence.hits);
    state.followUps = followUpTerms(state.context.question, state.evidence.hits);
  }
  trace.iteration(0);
  if (routed.usage) yield routed.usage;
  if (routed.failure)
    yield trace.observation(`The model could not route the question (${routed.failure}); routed by rules.`);
  if (start.reason)
    yield trace.observation(`Standard retrieval is not enough (${start.reason}); starting the agent.`);
  yield trace.thought(
    state.context.route.scope === 'document'
      ? `Intent: one document, ${state.context.route.documentName} (${state.context.route.reason}).`
      : `Intent: the whole collection (${state.context.route.reason}).${state.context.route.categories.length ? ` Sections of interest: ${state.context.route.categories.join(', ')}.` : ''}`,
  );

  const planner = plannerFor(deps);
  const offline = !deps.providers.chat;
  for (let i = 1; i <= state.context.maxIterations; i++) {
    if (start.signal?.aborted) return;
    state.iteration = i;
    trace.iteration(i);
    yield {
      type: 'progress',
      data: { stage: 'agent', current: i, total: state.context.maxIterations, message: `Iteration ${i}` },
    };
    let step: PlannedStep;
    try {
      step = await planner.next(state);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      yield* answerWithoutPlanner(deps, state, trace, error, { topics: start.topics, signal: start.signal });
      return;
    }
    if (step.usage) yield step.usage;
    if (step.thought) yield trace.thought(step.thought);
    const final = step.calls.find((c) => c.name === FINAL_ANSWER);
    if (final) {
      yield trace.action(FINAL_ANSWER, 'Answering from the passages gathered.');
      yield* synthesize(deps, state, trace, {
        final: finalInput(final),
        forced: false,
        topics: start.topics,
        signal: start.signal,
      });
      return;
    }
    const results: CallResult[] = [];
    for (const call of step.calls) {
      if (start.signal?.aborted) return;
      const outcome = yield* runCall(deps, state, trace, call);
      results.push(outcome);
    }
    planner.record(step, results);
    if (offline && state.strategy?.strategy === 'finalize' && plannerWouldFinish(state)) {
      yield trace.thought('The information gathered is sufficient.');
      yield trace.action(FINAL_ANSWER, 'Answering from the passages gathered.');
      yield* synthesize(deps, state, trace, { forced: false, topics: start.topics, signal: start.signal });
      return;
    }
  }
  yield trace.observation(
    `Reached the limit of ${state.context.maxIterations} iteration(s); answering from what was found, with low confidence.`,
  );
  yield* synthesize(deps, state, trace, { forced: true, topics: start.topics, signal: start.signal });
}

/**
 * Offline, "finalize" ends the loop only once nothing is left that the rules still want first:
 * the next hop of a multi-hop question and the consistency check across documents.
 */
function plannerWouldFinish(state: AgentState): boolean {
  if (state.evidence.documentIds().length >= 2 && !state.consistencyChecked) return false;
  if (!isMultiHop(state.context.question) || state.followUps.length === 0) return true;
  return state.calls.includes(signature('keyword_search', { keywords: state.followUps, mode: 'exact' }));
}

/** Runs one tool call: action and observation in the trace, the evaluation and the next strategy in the state. */
async function* runCall(
  deps: QaDeps,
  state: AgentState,
  trace: TraceRecorder,
  call: PlannedCall,
): AsyncGenerator<QaEvent, CallResult> {
  const tool = AGENT_TOOLS.get(call.name);
  yield trace.action(call.name, JSON.stringify(call.input ?? {}));
  state.calls.push(signature(call.name, call.input));
  if (!tool) {
    const content = `Unknown tool "${call.name}".`;
    yield trace.observation(content, call.name);
    return { call, content, isError: true };
  }
  const parsed = tool.input.safeParse(call.input ?? {});
  if (!parsed.success) {
    const content = `Invalid input for ${call.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`;
    yield trace.observation(content, call.name);
    return { call, content, isError: true };
  }
  try {
    const before = state.evidence.size;
    const outcome = await tool.run({ deps, state }, parsed.data as never);
    const fresh = state.evidence.hits.slice(before);
    // Passages seen before still count for the evaluation of a search that found only them.
    const judged = fresh.length > 0 || outcome.kind !== 'search' ? fresh : state.evidence.hits;
    const evaluation = evaluateOutcome(call.name, outcome, state.context.question, judged);
    state.evaluations.push(evaluation);
    state.infoDensity = infoDensity(state.context.question, state.evidence.hits);
    if (state.followUps.length === 0)
      state.followUps = followUpTerms(state.context.question, state.evidence.hits);
    state.strategy = adaptiveStrategy(state, evaluation);
    yield trace.observation(
      `${outcome.summary} Feedback: ${evaluation.quality}${state.strategy.hint ? `; ${state.strategy.hint}` : ''}`,
      call.name,
    );
    const feedback = `\n\nFeedback: result quality ${evaluation.quality}; strategy ${state.strategy.strategy}${state.strategy.hint ? ` (${state.strategy.hint})` : ''}; iteration ${state.iteration} of ${state.context.maxIterations}; information density ${state.infoDensity.toFixed(2)}.`;
    return { call, content: outcome.observation + feedback, isError: false };
  } catch (error) {
    if (!(error instanceof DropQAError)) throw error;
    const content = `${call.name} failed: ${reasonOf(error)}`;
    state.evaluations.push({ tool: call.name, quality: 'empty', suggestion: 'try_different_query' });
    yield trace.observation(content, call.name);
    return { call, content, isError: true };
  }
}

/** The model's final_answer input, or undefined (offline: synthesize) when absent or malformed. */
function finalInput(call: PlannedCall): FinalAnswerInput | undefined {
  if (call.input === undefined) return undefined;
  const parsed = finalAnswerInput.safeParse(call.input);
  return parsed.success ? parsed.data : undefined;
}

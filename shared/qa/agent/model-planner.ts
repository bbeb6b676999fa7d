import { z } from 'zod';
import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatMessage, ChatModel, ContentPart, ToolSpec } from '#shared/llm/types.ts';
import type { QaEvent } from '../events.ts';
import { loadQaPrompt } from '../prompt.ts';
import type { CallResult, PlannedStep, Planner } from './planner.ts';
import { passageBlocks } from './tools/format.ts';
import { AGENT_TOOLS, FINAL_ANSWER, toolSpecs } from './tools/index.ts';
import type { AgentState } from './types.ts';

/** Most tool calls run from one model turn. */
const MAX_CALLS_PER_TURN = 4;

/** The first user message: the question, the routing, the limit, and the passages retrieved so far. */
export function agentTask(state: AgentState): string {
  const { route } = state.context;
  const routing =
    route.scope === 'document'
      ? `one document, "${route.documentName}" (document_id ${route.documentId}): ${route.reason}`
      : `the whole collection: ${route.reason}`;
  const categories = route.categories.length
    ? `; the question is about ${route.categories.join('/')} sections`
    : '';
  const hits = state.evidence.hits;
  const initial = hits.length
    ? `Passages found by a first search (cite them as [n]):\n${passageBlocks(
        hits,
        hits.map((_, i) => i + 1),
      )}`
    : 'Nothing has been searched yet.';
  return fillPrompt(loadQaPrompt('agent-task'), {
    question: state.context.question,
    route: `${routing}${categories}`,
    maxIterations: String(state.context.maxIterations),
    initial,
  });
}

function usageEvent(usage: { inputTokens: number; outputTokens: number }, model: string): QaEvent {
  return { type: 'usage', data: { stage: 'agent', ...usage, model } };
}

/**
 * The model plans with native tool calling (Bedrock toolConfig, OpenAI `tools`): each turn it
 * may think in text and call tools; results go back as tool results, each with the evaluator's
 * feedback. Role `answer`.
 */
export class NativeToolPlanner implements Planner {
  private readonly messages: ChatMessage[] = [];
  private readonly specs: ToolSpec[] = toolSpecs();

  constructor(private readonly chat: ChatModel) {}

  async next(state: AgentState): Promise<PlannedStep> {
    if (this.messages.length === 0) this.messages.push({ role: 'user', content: agentTask(state) });
    const result = await this.chat.complete({
      role: 'answer',
      system: loadQaPrompt('agent-system'),
      messages: this.messages,
      tools: this.specs,
      toolChoice: 'auto',
    });
    const calls = (result.toolCalls ?? [])
      .slice(0, MAX_CALLS_PER_TURN)
      .map((c) => ({ id: c.id, name: c.name, input: c.input }));
    const content: ContentPart[] = [
      ...(result.text.trim() ? [{ type: 'text' as const, text: result.text }] : []),
      ...calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input })),
    ];
    if (content.length > 0) this.messages.push({ role: 'assistant', content });
    if (calls.length === 0) {
      // A turn without a tool call is the model answering in text.
      return {
        thought: '',
        calls: [
          { id: 'text-answer', name: FINAL_ANSWER, input: { answer: result.text, confidence: 'medium' } },
        ],
        usage: usageEvent(result.usage, result.model),
      };
    }
    return { thought: result.text.trim(), calls, usage: usageEvent(result.usage, result.model) };
  }

  record(_step: PlannedStep, results: CallResult[]): void {
    if (results.length === 0) return;
    this.messages.push({
      role: 'user',
      content: results.map((r) => ({
        type: 'tool_result',
        toolUseId: r.call.id,
        content: r.content,
        isError: r.isError,
      })),
    });
  }
}

const action = z.object({
  thought: z.string().max(4000).default(''),
  action: z.string().refine((name) => name === FINAL_ANSWER || AGENT_TOOLS.has(name), 'unknown tool'),
  params: z.record(z.string(), z.unknown()).default({}),
});

/**
 * The model plans with one structured JSON action per turn (`{thought, action, params}`,
 * docs/spec.md#planners), for servers without native tools; the history goes back as text. Role
 * `answer`.
 */
export class JsonActionPlanner implements Planner {
  private readonly history: string[] = [];
  private turn = 0;

  constructor(private readonly chat: ChatModel) {}

  async next(state: AgentState): Promise<PlannedStep> {
    this.turn += 1;
    const tools = toolSpecs()
      .map((t) => `- ${t.name}: ${t.description}\n  input schema: ${JSON.stringify(t.inputSchema)}`)
      .join('\n');
    const prompt = [
      agentTask(state),
      `Tools:\n${tools}`,
      this.history.length ? `History:\n${this.history.join('\n\n')}` : '',
      'Reply with JSON only: {"thought": "your reasoning", "action": "<tool name>", "params": {...}}',
    ]
      .filter(Boolean)
      .join('\n\n');
    const result = await this.chat.structured(
      { role: 'answer', system: loadQaPrompt('agent-system'), messages: [{ role: 'user', content: prompt }] },
      action,
    );
    const { thought, action: name, params } = result.value;
    return {
      thought,
      calls: [{ id: `json-${this.turn}`, name, input: params }],
      usage: usageEvent(result.usage, result.model),
    };
  }

  record(step: PlannedStep, results: CallResult[]): void {
    for (const r of results) {
      this.history.push(
        `Thought: ${step.thought}\nAction: ${r.call.name} ${JSON.stringify(r.call.input)}\nResult:\n${r.content}`,
      );
    }
  }
}

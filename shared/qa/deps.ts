import type { Providers } from '#shared/llm/types.ts';
import type { SearchDeps } from '#shared/search/types.ts';

/** Settings of the question-answering flows (from the `qa` configuration, see shared/runtime/qa-deps.ts). */
export interface QaOptions {
  /** Most iterations of the agent loop before a forced synthesis (default 5, docs/spec.md#agent-loop). */
  maxIterations?: number;
  /**
   * How the agent talks to the chat model: `native` tool calling (Bedrock toolConfig, OpenAI
   * `tools`; the default) or `json`, one structured JSON action per turn, for servers without tools.
   */
  toolProtocol?: 'native' | 'json';
  /**
   * How the agent routes a question to one document or the corpus: `model` (the default; the chat
   * model classifies, the rules stand in offline or when it fails) or `rules` only.
   */
  routing?: 'model' | 'rules';
  /**
   * Conversations: the earlier turns (newest first, whole turns) the answering model and the
   * `condense` rewrite see, bounded by this many tokens (default 1500).
   */
  historyTokens?: number;
}

/** What the question-answering flows need: search over the database, and the providers in force. */
export type QaDeps = SearchDeps & { providers: Providers; qa?: QaOptions };

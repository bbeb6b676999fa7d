import type { ZodType } from 'zod';
import type { Role } from '../config/index.ts';
import type { Reranker } from './rerank/types.ts';
import type { UsageLedger } from './usage.ts';

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; bytes: Uint8Array; mime: string }
  /** A tool call the model made (in an assistant message, replayed to continue a tool loop). */
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  /** The answer to a tool call (in the next user message). */
  | { type: 'tool_result'; toolUseId: string; content: string; isError?: boolean };

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string | ContentPart[];
}

/** A tool the model may call natively (Bedrock toolConfig, OpenAI `tools`). */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON schema of the tool's input (an object schema), e.g. from `z.toJSONSchema`. */
  inputSchema: Record<string, unknown>;
}

/** `auto`: the model decides; `any`: it must call some tool; `{ name }`: it must call that tool. */
export type ToolChoice = 'auto' | 'any' | { name: string };

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ChatRequest {
  /** Which role's settings (model, temperature, max tokens) apply. */
  role: Role;
  system?: string;
  messages: ChatMessage[];
  /** Native tool calling (via `complete`): the calls come back in `ChatResult.toolCalls`. */
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type StopReason = 'end' | 'max_tokens' | 'tool_use' | 'other';

export interface ChatResult {
  text: string;
  model: string;
  usage: TokenUsage;
  /** The tools the model called, in order (empty or absent when it answered in text). */
  toolCalls?: ToolCall[];
  stopReason?: StopReason;
}

export type ChatStreamEvent =
  | { type: 'delta'; text: string }
  | { type: 'usage'; usage: TokenUsage; model: string };

/** A generative model (Bedrock, OpenAI-compatible). The offline provider has none: see `Providers.chat`. */
export interface ChatModel {
  readonly provider: 'openai' | 'bedrock';
  complete(request: ChatRequest): Promise<ChatResult>;
  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
  /** JSON output validated by the schema, with one repair retry on invalid output. */
  structured<T>(
    request: ChatRequest,
    schema: ZodType<T>,
  ): Promise<{ value: T; usage: TokenUsage; model: string }>;
}

export interface EmbedOptions {
  /**
   * What the texts are for: models with asymmetric embeddings (Cohere's input_type) embed queries
   * and documents differently. Default `document`.
   */
  purpose?: 'document' | 'query';
}

export interface Embedder {
  /** Stored with each vector; vectors of different models are never compared. */
  readonly model: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order; batches internally. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}

/** Clockwise quarter turns: how far a picture was turned before its text read upright. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** A block of recognized text (tesseract's block, Textract's line) with the engine's confidence, 0..1. */
export interface OcrBlock {
  text: string;
  confidence: number;
}

/** What an OCR engine read in one image. */
export interface OcrReading {
  text: string;
  /** Mean confidence, 0..1. */
  confidence?: number;
  /** The text block by block, each with its confidence (for the confidence floor). */
  blocks?: OcrBlock[];
  /** The turn that made the text upright, when the picture was sideways or upside down. */
  turn?: QuarterTurn;
  /** The language models that read it (`chi_sim`, `eng+chi_sim`), when the engine chose among several. */
  languages?: string;
}

export interface OcrEngine {
  readonly name: string;
  recognize(image: Uint8Array, mime: string): Promise<OcrReading>;
  /** Releases a worker or sockets (the tesseract worker also stops itself when idle). */
  close?(): Promise<void>;
}

/** The providers in force. `chat` undefined means offline: extractive algorithms, labelled as such. */
export interface Providers {
  chat?: ChatModel;
  embedder: Embedder;
  ocr?: OcrEngine;
  /** Cross-encoder reranking of search results, when `search.rerank` configures one. */
  reranker?: Reranker;
  /** Human-readable description for `meta` events and the dashboard, e.g. "offline (extractive)". */
  label: string;
  /** Token usage of the model calls made through these providers, per role (absent for hand-made ones). */
  usage?: UsageLedger;
}

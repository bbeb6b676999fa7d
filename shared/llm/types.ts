import type { ZodType } from 'zod';
import type { Role } from '../config/index.ts';

export type ContentPart = { type: 'text'; text: string } | { type: 'image'; bytes: Uint8Array; mime: string };

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  /** Which role's settings (model, temperature, max tokens) apply. */
  role: Role;
  system?: string;
  messages: ChatMessage[];
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResult {
  text: string;
  model: string;
  usage: TokenUsage;
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

export interface Embedder {
  /** Stored with each vector; vectors of different models are never compared. */
  readonly model: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order; batches internally. */
  embed(texts: string[]): Promise<number[][]>;
}

export interface OcrEngine {
  readonly name: string;
  recognize(image: Uint8Array, mime: string): Promise<{ text: string; confidence?: number }>;
}

/** The providers in force. `chat` undefined means offline: extractive algorithms, labelled as such. */
export interface Providers {
  chat?: ChatModel;
  embedder: Embedder;
  ocr?: OcrEngine;
  /** Human-readable description for `meta` events and the dashboard, e.g. "offline (extractive)". */
  label: string;
}

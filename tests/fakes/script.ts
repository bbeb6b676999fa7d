/** Token counts a fake reports for a reply. */
export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * One scripted answer of a fake model server. Every reply may wait `delayMs` first (to test
 * timeouts and concurrency).
 */
export type FakeReply = { delayMs?: number } & (
  | {
      text: string;
      chunks?: string[];
      usage?: FakeUsage;
      stopReason?: 'end' | 'max_tokens';
      /** Streams only: an error event after this many chunks (a Bedrock exception frame, an SSE error). */
      streamError?: { type: string; message?: string; afterChunks: number };
    }
  | { toolCalls: Array<{ name: string; input: unknown; id?: string }>; usage?: FakeUsage }
  /** An HTTP error: `type` is the AWS error name (ThrottlingException) or the OpenAI error type. */
  | { error: { status: number; type: string; message?: string } }
  /** The connection is dropped without an answer (ECONNRESET at the client). */
  | { reset: true }
  /** An embeddings answer that overrides the fake's deterministic vectors. */
  | { vectors: number[][]; usage?: FakeUsage }
  /** A rerank answer: the relevance of each passage, in input order (default: `overlapScores`). */
  | { scores: number[] }
);

export type FakeOperation = 'chat' | 'embed' | 'rerank';

/** A request as the fake received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** `converse`, `converse-stream`, `invoke` (Bedrock); `chat`, `chat-stream`, `embeddings` (OpenAI). */
  operation: string;
  model: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: wire JSON of two protocols that tests dig into by path
  body: any;
  receivedAt: number;
}

/** Per-operation queues of scripted replies; an empty queue means the fake's default answer. */
export class ReplyScript {
  private readonly queues: Record<FakeOperation, FakeReply[]> = { chat: [], embed: [], rerank: [] };

  push(operation: FakeOperation, replies: FakeReply[]): void {
    this.queues[operation].push(...replies);
  }

  next(operation: FakeOperation): FakeReply | undefined {
    return this.queues[operation].shift();
  }

  clear(): void {
    this.queues.chat.length = 0;
    this.queues.embed.length = 0;
    this.queues.rerank.length = 0;
  }
}

/** A deterministic unit vector for a text, so equal texts embed equally across calls. */
export function fakeVector(text: string, dimensions: number): number[] {
  let seed = 2166136261;
  for (const ch of text) seed = Math.imul(seed ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  const out: number[] = [];
  for (let i = 0; i < dimensions; i++) {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) >>> 0;
    seed = Math.imul(seed ^ (seed >>> 13), 3266489909) >>> 0;
    out.push((seed / 0xffffffff) * 2 - 1);
  }
  const norm = Math.sqrt(out.reduce((s, x) => s + x * x, 0)) || 1;
  return out.map((x) => x / norm);
}

/**
 * The fake cross-encoder's relevance of each passage to a query: the share of the query's distinct
 * words (lower-cased, 3+ letters) the passage contains, so a test knows which passage must win.
 */
export function overlapScores(query: string, passages: string[]): number[] {
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
  const asked = words(query);
  return passages.map((passage) => {
    const found = words(passage);
    let shared = 0;
    for (const word of asked) if (found.has(word)) shared += 1;
    return asked.size ? shared / asked.size : 0;
  });
}

/** Splits a text into about three chunks, for streamed replies without explicit chunks. */
export function defaultChunks(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A reply that answers (not an error, not a dropped connection); undefined: the fake's default. */
export type OkReply =
  | Extract<FakeReply, { text: string } | { toolCalls: unknown } | { vectors: unknown } | { scores: unknown }>
  | undefined;

/** The reply when it answers, undefined for the default answer. */
export function answering(reply: FakeReply | undefined): OkReply {
  return reply && !('error' in reply) && !('reset' in reply) ? (reply as OkReply) : undefined;
}

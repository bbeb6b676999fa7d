import type { ZodType } from 'zod';
import type { ChatModel, ChatRequest, ChatStreamEvent, Embedder, EmbedOptions } from './types.ts';

/**
 * Loads the SDK-backed model on first use: the AWS and OpenAI SDKs take seconds to import, which
 * a process that never calls a model (the offline default, a CLI command) should not pay.
 */
export class LazyChat implements ChatModel {
  private loading?: Promise<ChatModel>;

  constructor(
    readonly provider: ChatModel['provider'],
    private readonly load: () => Promise<ChatModel>,
  ) {}

  async complete(request: ChatRequest) {
    return (await this.model()).complete(request);
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    yield* (await this.model()).stream(request);
  }

  async structured<T>(request: ChatRequest, schema: ZodType<T>) {
    return (await this.model()).structured(request, schema);
  }

  private model(): Promise<ChatModel> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }
}

/** An embedder loaded on first use (see LazyChat); model and dimensions are known up front. */
export class LazyEmbedder implements Embedder {
  private loading?: Promise<Embedder>;

  constructor(
    readonly model: string,
    readonly dimensions: number,
    private readonly load: () => Promise<Embedder>,
  ) {}

  async embed(texts: string[], options?: EmbedOptions): Promise<number[][]> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return (await this.loading).embed(texts, options);
  }
}

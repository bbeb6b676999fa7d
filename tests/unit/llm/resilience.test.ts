import { describe, expect, it } from 'vitest';
import { ProviderError } from '#shared/errors.ts';
import { backoffDelay } from '#shared/llm/resilience/backoff.ts';
import { ResilientCaller } from '#shared/llm/resilience/caller.ts';
import { isRetryable, retryAfterMs } from '#shared/llm/resilience/classify.ts';

function awsError(name: string, status: number): Error {
  return Object.assign(new Error(`${name} from the service`), {
    name,
    $metadata: { httpStatusCode: status },
  });
}

function caller(overrides: Partial<ConstructorParameters<typeof ResilientCaller>[0]> = {}) {
  return new ResilientCaller({
    provider: 'bedrock',
    timeoutMs: 1000,
    maxRetries: 3,
    maxConcurrency: 4,
    backoff: { baseDelayMs: 1, maxDelayMs: 2 },
    ...overrides,
  });
}

const context = { model: 'anthropic.claude-3-haiku', role: 'summarize' as const };

describe('isRetryable', () => {
  it('retries throttling, unavailability, 5xx and connection resets', () => {
    expect(isRetryable(awsError('ThrottlingException', 429))).toBe(true);
    expect(isRetryable(awsError('ServiceUnavailableException', 503))).toBe(true);
    expect(isRetryable(awsError('InternalServerException', 500))).toBe(true);
    expect(isRetryable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(
      isRetryable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'EPIPE' }) })),
    ).toBe(true);
  });

  it('does not retry validation, access and other 4xx errors', () => {
    expect(isRetryable(awsError('ValidationException', 400))).toBe(false);
    expect(isRetryable(awsError('AccessDeniedException', 403))).toBe(false);
    expect(isRetryable(Object.assign(new Error('bad'), { status: 422 }))).toBe(false);
    expect(isRetryable(new Error('plain failure'))).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, then retry-after in seconds', () => {
    expect(retryAfterMs({ headers: new Headers({ 'retry-after-ms': '250' }) })).toBe(250);
    expect(retryAfterMs({ headers: new Headers({ 'retry-after': '2' }) })).toBe(2000);
    expect(retryAfterMs({ headers: new Headers() })).toBeUndefined();
    expect(retryAfterMs(new Error('no headers'))).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('draws a wait below a ceiling that doubles per attempt up to the maximum', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, options, () => 0.999)).toBe(99);
    expect(backoffDelay(2, options, () => 0.999)).toBe(399);
    expect(backoffDelay(10, options, () => 0.999)).toBe(999);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });
});

describe('ResilientCaller', () => {
  it('retries a throttled call and returns its result', async () => {
    let attempts = 0;
    const result = await caller().call(context, async () => {
      attempts++;
      if (attempts < 3) throw awsError('ThrottlingException', 429);
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(attempts).toBe(3);
  });

  it('names provider, model, role, retries and cause when it gives up', async () => {
    let attempts = 0;
    const error = await caller({ maxRetries: 2 })
      .call(context, async () => {
        attempts++;
        throw awsError('ThrottlingException', 429);
      })
      .catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe(
      'bedrock model anthropic.claude-3-haiku (role summarize) failed after 2 retries: ThrottlingException (HTTP 429): ThrottlingException from the service',
    );
  });

  it('fails a validation error at once', async () => {
    let attempts = 0;
    const error = await caller()
      .call(context, async () => {
        attempts++;
        throw awsError('ValidationException', 400);
      })
      .catch((e: unknown) => e);
    expect(attempts).toBe(1);
    expect((error as Error).message).toMatch(/\(role summarize\) failed: ValidationException/);
  });

  it('aborts an attempt that outlives the timeout', async () => {
    let aborted = false;
    const error = await caller({ timeoutMs: 20, maxRetries: 0 })
      .call(context, (signal) => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise(() => {});
      })
      .catch((e: unknown) => e);
    expect(aborted).toBe(true);
    expect((error as Error).message).toMatch(/CallTimeoutError: no answer within 20 ms/);
  });

  it('retries a stream that fails before its first event', async () => {
    let opens = 0;
    const events: string[] = [];
    for await (const event of caller().stream(context, async function* () {
      opens++;
      if (opens === 1) throw awsError('ServiceUnavailableException', 503);
      yield 'a';
      yield 'b';
    })) {
      events.push(event);
    }
    expect(opens).toBe(2);
    expect(events).toEqual(['a', 'b']);
  });

  it('does not retry a stream that fails after passing events on', async () => {
    let opens = 0;
    const events: string[] = [];
    const run = async () => {
      for await (const event of caller().stream(context, async function* () {
        opens++;
        yield 'a';
        throw awsError('ModelStreamErrorException', 500);
      })) {
        events.push(event);
      }
    };
    await expect(run()).rejects.toThrow(ProviderError);
    expect(opens).toBe(1);
    expect(events).toEqual(['a']);
  });

  it('times out a stream that stalls before its next event, and retries it', async () => {
    let opens = 0;
    const events: string[] = [];
    const stalls = caller({ timeoutMs: 30, maxRetries: 1 });
    for await (const event of stalls.stream(context, async function* () {
      opens++;
      if (opens === 1) await new Promise(() => {});
      yield 'fresh';
    })) {
      events.push(event);
    }
    expect(opens).toBe(2);
    expect(events).toEqual(['fresh']);
  });

  it('holds a concurrency slot for the whole stream and frees it when the consumer stops', async () => {
    const limited = caller({ maxConcurrency: 1 });
    const stream = limited.stream(context, async function* () {
      yield 1;
      yield 2;
    });
    for await (const _ of stream) {
      expect(limited.limiter.active).toBe(1);
      break;
    }
    // The slot is free again: the next call runs (p-queue counts the release a microtask later).
    await expect(limited.call(context, async () => 'next')).resolves.toBe('next');
    await limited.limiter.idle();
    expect(limited.limiter.active).toBe(0);
  });
});

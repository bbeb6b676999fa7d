import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timeLimit, withTimeout } from '#shared/async/timeout.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise that rejects after `ms`, with nothing attached to it but what the code under test attaches. */
const rejectsAfter = (ms: number) =>
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late failure')), ms));

describe('a race loser that rejects later', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('unhandledRejection', record);
  });

  it('is handled by Promise.race itself: no unhandled rejection without a .catch of its own', async () => {
    const loser = rejectsAfter(20);
    await expect(Promise.race([loser, sleep(1).then(() => 'winner')])).resolves.toBe('winner');
    await sleep(60);
    expect(unhandled).toEqual([]);
  });

  it('is handled by timeLimit: the timeout wins, the late failure is not unhandled', async () => {
    await expect(timeLimit(rejectsAfter(20), 1, () => new Error('too slow'))).rejects.toThrow('too slow');
    await sleep(60);
    expect(unhandled).toEqual([]);
  });

  it('is still caught by the runtime when nothing raced it (the check works)', async () => {
    rejectsAfter(1);
    await sleep(60);
    expect(unhandled).toHaveLength(1);
  });
});

describe('timeLimit', () => {
  it("gives the promise's value or error when it settles in time", async () => {
    await expect(
      timeLimit(
        sleep(1).then(() => 'done'),
        1000,
        () => new Error('too slow'),
      ),
    ).resolves.toBe('done');
    await expect(timeLimit(rejectsAfter(1), 1000, () => new Error('too slow'))).rejects.toThrow(
      'late failure',
    );
  });

  it('treats a limit beyond the timer range as no limit rather than firing at once', async () => {
    await expect(
      timeLimit(
        sleep(5).then(() => 'done'),
        2 ** 40,
        () => new Error('x'),
      ),
    ).resolves.toBe('done');
  });
});

describe('withTimeout', () => {
  it('aborts the work with the timeout error, and rejects with it without waiting for the work', async () => {
    let seen: unknown;
    const started = Date.now();
    const error = await withTimeout(
      10,
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => (seen = signal.reason));
          setTimeout(resolve, 200);
        }),
      () => new Error('out of time'),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('out of time');
    expect(seen).toBe(error);
    expect(Date.now() - started).toBeLessThan(150);
  });

  it("passes the outer signal's abort to the work", async () => {
    const outer = new AbortController();
    const work = withTimeout(
      1000,
      (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      () => new Error('out of time'),
      outer.signal,
    );
    outer.abort(new Error('client left'));
    await expect(work).rejects.toThrow('client left');
  });
});

import { describe, expect, it } from 'vitest';
import { createLimiter, mapLimit, settleEach } from '#shared/async/limiter.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createLimiter', () => {
  it('never runs more than the limit at once and starts everything in call order', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        limit.run(async () => {
          started.push(i);
          running++;
          peak = Math.max(peak, running);
          await sleep(5);
          running--;
          return i * 10;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(limit.active).toBe(0);
  });

  it('starts waiting work by priority, then in call order, when a slot frees', async () => {
    const limit = createLimiter(1);
    const started: string[] = [];
    let release: () => void = () => undefined;
    const first = limit.run(() => new Promise<void>((resolve) => (release = resolve)));
    const run = (name: string, priority?: number) =>
      limit.run(async () => {
        started.push(name);
      }, priority);
    const rest = [run('low'), run('deep a', 3), run('mid', 1), run('deep b', 3)];
    release();
    await Promise.all([first, ...rest]);
    expect(started).toEqual(['deep a', 'deep b', 'mid', 'low']);
  });

  it('frees the slot of a task that rejects', async () => {
    const limit = createLimiter(1);
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(async () => 'next')).resolves.toBe('next');
  });

  it('holds an acquired slot until it is released, once however often release is called', async () => {
    const limit = createLimiter(1);
    const release = await limit.acquire();
    let ran = false;
    const waiting = limit.run(async () => {
      ran = true;
    });
    await sleep(5);
    expect(ran).toBe(false);
    expect(limit.pending).toBe(1);
    release();
    release();
    await waiting;
    expect(ran).toBe(true);
    expect(limit.active).toBe(0);
  });

  it('resolves idle only when nothing is waiting or running', async () => {
    const limit = createLimiter(1);
    await limit.idle();
    let finished = 0;
    for (let i = 0; i < 3; i++)
      void limit.run(async () => {
        await sleep(5);
        finished++;
      });
    expect([limit.active, limit.pending]).toEqual([1, 2]);
    await limit.idle();
    expect(finished).toBe(3);
  });

  it('runs one at a time under a limit below one, and refuses no number', async () => {
    const limit = createLimiter(0);
    let running = 0;
    let peak = 0;
    const task = async () => {
      peak = Math.max(peak, ++running);
      await sleep(2);
      running--;
    };
    await Promise.all([limit.run(task), limit.run(task)]);
    expect(peak).toBe(1);
    expect(() => createLimiter(Number.NaN)).toThrow(RangeError);
  });
});

describe('mapLimit', () => {
  it('keeps the input order under the limit', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([30, 1, 10, 5], 2, async (ms) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(ms);
      inFlight--;
      return ms * 2;
    });
    expect(out).toEqual([60, 2, 20, 10]);
    expect(most).toBe(2);
  });
});

describe('settleEach', () => {
  it('yields outcomes as they settle, failures included, under the limit', async () => {
    let inFlight = 0;
    let most = 0;
    const out: string[] = [];
    for await (const o of settleEach([120, 5, 15, 1], 2, async (ms) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await sleep(ms);
      inFlight -= 1;
      if (ms === 15) throw new Error('boom');
      return ms;
    }))
      out.push(o.ok ? `ok ${o.value}` : `failed ${o.item}`);
    expect(most).toBe(2);
    expect(out).toEqual(['ok 5', 'failed 15', 'ok 1', 'ok 120']);
  });
});

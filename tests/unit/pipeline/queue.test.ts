import { describe, expect, it } from 'vitest';
import { createWorkQueue } from '#shared/pipeline/queue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createWorkQueue', () => {
  it('never runs more than the limit at once and runs everything in order', async () => {
    const queue = createWorkQueue(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        queue.add(async () => {
          started.push(i);
          running++;
          peak = Math.max(peak, running);
          await tick();
          running--;
          return i * 10;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('frees the slot of a task that rejects', async () => {
    const queue = createWorkQueue(1);
    await expect(queue.add(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.add(async () => 'next')).resolves.toBe('next');
  });

  it('resolves idle only when nothing is waiting or running', async () => {
    const queue = createWorkQueue(1);
    await queue.idle();
    let finished = 0;
    for (let i = 0; i < 3; i++)
      void queue.add(async () => {
        await tick();
        finished++;
      });
    expect(queue.size).toEqual({ running: 1, waiting: 2 });
    await queue.idle();
    expect(finished).toBe(3);
  });
});

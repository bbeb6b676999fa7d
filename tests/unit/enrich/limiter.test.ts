import { describe, expect, it } from 'vitest';
import { createLimiter } from '#shared/enrich/limiter.ts';

describe('createLimiter', () => {
  it('starts waiting work by priority, then in call order, when a slot frees', async () => {
    const limit = createLimiter(1);
    const started: string[] = [];
    let release: () => void = () => undefined;
    const first = limit(() => new Promise<void>((resolve) => (release = resolve)));
    const run = (name: string, priority?: number) =>
      limit(async () => {
        started.push(name);
      }, priority);
    const rest = [run('low'), run('deep a', 3), run('mid', 1), run('deep b', 3)];
    release();
    await Promise.all([first, ...rest]);
    expect(started).toEqual(['deep a', 'deep b', 'mid', 'low']);
  });
});

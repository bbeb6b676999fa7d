import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReadAhead } from '#shared/qa/two-stage/buffered.ts';
import { Deadline, StageTimeout } from '#shared/qa/two-stage/deadline.ts';
import { affirmative, decomposeOffline } from '#shared/qa/two-stage/decompose.ts';
import { judgeSufficiencyOffline } from '#shared/qa/two-stage/sufficiency.ts';
import type { SubQueryAnalysis } from '#shared/qa/two-stage/types.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('decomposeOffline', () => {
  it('turns a question of several asks into affirmative sub-queries, the whole one first', () => {
    const subs = decomposeOffline('云平台建设的预算是多少？项目由谁负责？', 5);
    expect(subs.map((s) => s.text)).toEqual([
      '云平台建设的预算 项目由谁负责',
      '云平台建设的预算',
      '项目由谁负责',
    ]);
    expect(subs.map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('keeps a simple question as one statement and never more than the maximum', () => {
    expect(decomposeOffline('What is the budget for 2024?', 5).map((s) => s.text)).toEqual([
      'the budget for 2024',
    ]);
    expect(decomposeOffline('alpha? beta? gamma? delta? epsilon? zeta?', 3)).toHaveLength(3);
  });

  it('drops question words and marks', () => {
    expect(affirmative('请问JOIN的核心功能是什么？')).toBe('JOIN的核心功能');
  });
});

describe('judgeSufficiencyOffline', () => {
  const analysis = (id: number, found: boolean, missing: string[] = []): SubQueryAnalysis => ({
    subquery: { id, text: `q${id}`, focus: `f${id}`, stage: 1 },
    answer: '',
    extracts: found ? [{ hit: {} as never, text: 'x' }] : [],
    confidence: found ? 'medium' : 'low',
    missing,
  });

  it('is satisfied when every sub-query found passages', () => {
    expect(judgeSufficiencyOffline([analysis(1, true), analysis(2, true)], 3).sufficient).toBe(true);
  });

  it('asks for a second stage with the missed terms when some sub-query found nothing', () => {
    const verdict = judgeSufficiencyOffline([analysis(1, true), analysis(2, false, ['风险', '回滚'])], 1);
    expect(verdict).toMatchObject({ sufficient: false, additional: [{ text: '风险', focus: '风险' }] });
  });
});

describe('ReadAhead', () => {
  /** Yields a, then waits for `gate`, then b and c; `read` resolves once c has been read. */
  function source(log: string[], gate: Promise<void>, read: () => void) {
    return (async function* () {
      log.push('a');
      yield 'a';
      await gate;
      log.push('b');
      yield 'b';
      log.push('c');
      read();
      yield 'c';
    })();
  }

  it('reads the whole source before it is drained, then yields it in order', async () => {
    const log: string[] = [];
    let read = () => {};
    const allRead = new Promise<void>((resolve) => (read = resolve));
    const ahead = new ReadAhead(source(log, Promise.resolve(), read));
    await allRead;
    expect(log).toEqual(['a', 'b', 'c']);
    const out: string[] = [];
    for await (const x of ahead.drain()) out.push(x);
    expect(out).toEqual(['a', 'b', 'c']);
  });

  it('stops reading when discarded', async () => {
    const log: string[] = [];
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const ahead = new ReadAhead(source(log, gate, () => {}));
    await sleep(0);
    ahead.discard();
    open();
    await sleep(20);
    expect(log).not.toContain('c');
  });
});

describe('Deadline', () => {
  // Fake timers: a loaded machine must not decide which side of 30 ms the first call lands on.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes work that finishes in time and rejects work that does not', async () => {
    const deadline = new Deadline(30);
    await expect(deadline.within(Promise.resolve(1))).resolves.toBe(1);
    const late = expect(deadline.within(sleep(100))).rejects.toBeInstanceOf(StageTimeout);
    await vi.advanceTimersByTimeAsync(31);
    await late;
    await expect(deadline.within(Promise.resolve(2))).rejects.toBeInstanceOf(StageTimeout);
  });
});

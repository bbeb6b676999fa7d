import { describe, expect, it } from 'vitest';
import { UsageLedger } from '#shared/llm/usage.ts';

describe('UsageLedger', () => {
  it('sums calls and tokens per role', () => {
    const ledger = new UsageLedger();
    ledger.record('summarize', { inputTokens: 100, outputTokens: 20 });
    ledger.record('summarize', { inputTokens: 50, outputTokens: 10 });
    ledger.record('embed', { inputTokens: 30, outputTokens: 0 }, 3);
    expect(ledger.snapshot()).toEqual({
      summarize: { calls: 2, inputTokens: 150, outputTokens: 30 },
      embed: { calls: 3, inputTokens: 30, outputTokens: 0 },
    });
    expect(ledger.total()).toEqual({ calls: 5, inputTokens: 180, outputTokens: 30 });
  });

  it('hands out copies and forgets everything on reset', () => {
    const ledger = new UsageLedger();
    ledger.record('answer', { inputTokens: 1, outputTokens: 1 });
    const snapshot = ledger.snapshot();
    ledger.record('answer', { inputTokens: 1, outputTokens: 1 });
    expect(snapshot.answer?.calls).toBe(1);
    ledger.reset();
    expect(ledger.snapshot()).toEqual({});
  });
});

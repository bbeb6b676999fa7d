import type { Role } from '../config/index.ts';
import type { TokenUsage } from './types.ts';

/** What a ledger line is kept under: a chat role, or `embed` for the embedder's calls. */
export type UsageKey = Role | 'embed' | 'rerank';

export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * Token usage of model calls, per role: every provider call records into it, the pipeline and QA
 * read it (`snapshot`) and reset it between runs.
 *
 * @example
 * const ledger = new UsageLedger();
 * ledger.record('summarize', { inputTokens: 120, outputTokens: 30 });
 * ledger.snapshot(); // { summarize: { calls: 1, inputTokens: 120, outputTokens: 30 } }
 */
export class UsageLedger {
  private readonly totals = new Map<UsageKey, UsageTotals>();

  /** Adds one call (or `calls` calls, for a batch) and its tokens under `key`. */
  record(key: UsageKey, usage: TokenUsage, calls = 1): void {
    const line = this.totals.get(key) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
    line.calls += calls;
    line.inputTokens += usage.inputTokens;
    line.outputTokens += usage.outputTokens;
    this.totals.set(key, line);
  }

  /** A copy of the totals so far, per role; roles without calls are absent. */
  snapshot(): Partial<Record<UsageKey, UsageTotals>> {
    const out: Partial<Record<UsageKey, UsageTotals>> = {};
    for (const [key, line] of this.totals) out[key] = { ...line };
    return out;
  }

  /** The sum over every role. */
  total(): UsageTotals {
    const sum = { calls: 0, inputTokens: 0, outputTokens: 0 };
    for (const line of this.totals.values()) {
      sum.calls += line.calls;
      sum.inputTokens += line.inputTokens;
      sum.outputTokens += line.outputTokens;
    }
    return sum;
  }

  /** Forgets every total. */
  reset(): void {
    this.totals.clear();
  }
}

import { timeLimit } from '#shared/async/timeout.ts';

/** Raised by `Deadline.within` when the two-stage flow runs out of time. */
export class StageTimeout extends Error {
  constructor(readonly afterMs: number) {
    super(`two-stage search took longer than ${afterMs} ms`);
    this.name = 'StageTimeout';
  }
}

/** One time budget shared by the steps of a flow. */
export class Deadline {
  private readonly endsAt: number;

  constructor(private readonly budgetMs: number) {
    this.endsAt = Date.now() + budgetMs;
  }

  /** The promise's value, or a `StageTimeout` when the budget ends first (the work is abandoned). */
  async within<T>(work: Promise<T>): Promise<T> {
    const left = this.endsAt - Date.now();
    if (left <= 0) throw new StageTimeout(this.budgetMs);
    return timeLimit(work, left, () => new StageTimeout(this.budgetMs));
  }
}

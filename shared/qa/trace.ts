import type { QaEvent } from './events.ts';
import type { TraceStep } from './response.ts';

/**
 * The reasoning trace of one answer: every step recorded for the response's `reasoning_trace` and
 * returned as the `trace` event to stream. Steps are numbered by iteration: `iteration(n)` sets the
 * number the next steps carry (docs/spec.md#reasoning-trace: a thought, its action and its
 * observation share it).
 *
 * @example const trace = new TraceRecorder(); yield trace.action('hybrid_search', 'Found 3 passages');
 */
export class TraceRecorder {
  readonly steps: TraceStep[] = [];
  private current = 1;

  /** Steps recorded from now on carry this number. */
  iteration(step: number): void {
    this.current = step;
  }

  get step(): number {
    return this.current;
  }

  thought(content: string): QaEvent {
    return this.add({ step: this.current, type: 'thought', content });
  }

  action(tool: string, content: string): QaEvent {
    return this.add({ step: this.current, type: 'action', tool, content });
  }

  observation(content: string, tool?: string): QaEvent {
    return this.add({ step: this.current, type: 'observation', content, ...(tool ? { tool } : {}) });
  }

  private add(step: TraceStep): QaEvent {
    this.steps.push(step);
    return { type: 'trace', data: step };
  }
}

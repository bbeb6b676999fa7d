import './polyfill.ts';
import type { RunOptions, StateMachine } from 'aws-local-stepfunctions';

type JSONValue = Parameters<StateMachine['run']>[0];
type EventLog = ReturnType<StateMachine['run']>['eventLogs'] extends AsyncGenerator<infer E> ? E : never;

/** Step Functions (Standard) refuses a state input or output above 256 KB (UTF-8 JSON). */
export const STATE_PAYLOAD_BYTES = 256 * 1024;
/** ... and fails an execution whose history passes 25,000 events. */
export const HISTORY_EVENTS = 25_000;

/**
 * A run that Step Functions would fail: `States.DataLimitExceeded` (a state's input or output above
 * 256 KB; in AWS no Catch sees it, not even States.ALL) or a history of more than 25,000 events.
 */
export class ExecutionLimitError extends Error {
  constructor(name: 'States.DataLimitExceeded' | 'ExecutionHistoryLimitExceeded', message: string) {
    super(message);
    this.name = name;
  }
}

/** The limits a run is held to: Step Functions' own unless a test lowers them. */
export interface ExecutionLimits {
  stateBytes?: number;
  historyEvents?: number;
}

/**
 * The events Step Functions records for one event of aws-local-stepfunctions: a Task state's entry
 * also schedules, starts and ends its invocation (TaskScheduled, TaskStarted, TaskSucceeded or
 * TaskFailed), and each retry does so again; every other event is one history event.
 */
function historyEvents(event: EventLog): number {
  if (event.type === 'StateEntered' && event.state.type === 'Task') return 4;
  if (event.type === 'StateRetried') return 3;
  return 1;
}

function payloadBytes(value: JSONValue | undefined): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));
}

/**
 * The data a state passed over the limit, described for the error (`Parse output of 300.2 KB`).
 */
function oversized(event: EventLog, limit: number): string | undefined {
  const check = (what: string, value: JSONValue | undefined) => {
    const bytes = payloadBytes(value);
    return bytes > limit ? `${what} of ${(bytes / 1024).toFixed(1)} KB` : undefined;
  };
  if (event.type === 'ExecutionStarted') return check('the execution input', event.input);
  if (event.type === 'StateEntered') return check(`${event.state.name}'s input`, event.state.input);
  if (event.type === 'StateExited') return check(`${event.state.name}'s output`, event.state.output);
  return undefined;
}

/**
 * Runs `machine` as aws-local-stepfunctions does, and fails the run as Step Functions would when a
 * state's input or output passes 256 KB or the history passes 25,000 events (counted as AWS counts
 * them, see `historyEvents`): every place the pipeline's definition runs locally (the local runner,
 * the tests of the deployed definition) is held to the limits of the deployed one.
 *
 * @example const output = await runWithinLimits(machine, { key: 'a.md' }, { overrides });
 */
export async function runWithinLimits(
  machine: StateMachine,
  input: JSONValue,
  options?: RunOptions,
  limits: ExecutionLimits = {},
): Promise<JSONValue> {
  const { stateBytes = STATE_PAYLOAD_BYTES, historyEvents: maxEvents = HISTORY_EVENTS } = limits;
  const execution = machine.run(input, options);
  let breach: ExecutionLimitError | undefined;
  let events = 0;
  const watching = (async () => {
    for await (const event of execution.eventLogs) {
      events += historyEvents(event);
      const big = oversized(event, stateBytes);
      if (big)
        breach = new ExecutionLimitError(
          'States.DataLimitExceeded',
          `${big} passes the ${stateBytes / 1024} KB Step Functions allows a state: keep lists in the database or the bucket and pass identifiers or counts`,
        );
      else if (events > maxEvents)
        breach = new ExecutionLimitError(
          'ExecutionHistoryLimitExceeded',
          `the execution passed ${maxEvents.toLocaleString('en')} history events (Step Functions fails it there): do more per Task invocation`,
        );
      if (breach) {
        execution.abort();
        return;
      }
    }
  })();
  try {
    const output = await execution.result;
    await watching;
    if (breach) throw breach;
    return output;
  } catch (error) {
    if (breach) throw breach;
    throw error;
  }
}

import './polyfill.ts';
import type { StateMachineDefinition as LocalDefinition, StateMachine } from 'aws-local-stepfunctions';
import { createLimiter } from '#shared/async/limiter.ts';
import { errorFields, log } from '#shared/log/logger.ts';
import type { PipelineActivity } from '../documents/activity.ts';
import { mergeVersionStats } from '../documents/versions.ts';
import { reasonOf } from '../errors.ts';
import { type ExecutionUsage, trackUsage } from '../llm/usage-tracking.ts';
import { type PipelineInput, pipelineInputSchema, type RegisterOutput, type VersionRef } from './contract.ts';
import { localResources, pipelineDefinition, TASK_NAMES, type TaskName } from './definition.ts';
import { type ExecutionLimits, runWithinLimits } from './execution-limits.ts';
import { toStepError } from './step-error.ts';
import { STEPS } from './step-table.ts';
import type { PipelineDeps, PipelineEvent, PipelineOutcome, StepHandlers } from './types.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Listener = (event: PipelineEvent) => void;

export interface PipelineRunnerOptions {
  /** Replaces steps by Task name: tests inject failing or slow steps here. */
  steps?: Partial<StepHandlers>;
  /** Wait this many milliseconds between retries instead of the definition's backoff (tests). */
  retryDelayMs?: number;
  /** Receives the events of every execution. */
  onEvent?: Listener;
  /** Lower state-size and history limits than Step Functions' (tests); see `runWithinLimits`. */
  executionLimits?: ExecutionLimits;
}

export interface PipelineRunner {
  /**
   * Queues one execution and resolves with its outcome once it ends; never rejects: failures come
   * back as `status: 'failed'` with the reason (and are recorded on the version).
   */
  run(input: PipelineInput, onEvent?: Listener): Promise<PipelineOutcome>;
  /** Resolves when no execution is queued or running. */
  idle(): Promise<void>;
  /** What this runner does for `key` now: an execution `running`, one `waiting` for a free slot, or `none`. */
  activity(key: string): PipelineActivity;
}

export type { PipelineActivity };

let validated: Promise<StateMachine> | undefined;

/**
 * The definition, validated once per process (validation compiles JSON schemas: ~0.5 s). The
 * package (with the AWS SDK's Lambda client and the schema validators it brings) is loaded here, on
 * the first execution, not when a server starts: importing it took ~0.24 s of a start's main thread.
 */
function localMachine(): Promise<StateMachine> {
  validated ??= import('aws-local-stepfunctions').then(
    // The validator annotates the definition it checks, so it gets its own copy.
    ({ StateMachine }) =>
      new StateMachine(structuredClone(pipelineDefinition(localResources())) as LocalDefinition),
  );
  return validated;
}

/**
 * The local runner: executes the ingestion state machine (the very definition CDK deploys) with
 * aws-local-stepfunctions, each Task state running its in-process step, at most
 * `limits.pipelineConcurrency` executions at once.
 *
 * @example
 * const runner = createPipelineRunner({ db, store, providers, config });
 * const outcome = await runner.run({ key: 'uploads/a.md' }); // { documentId, version: 1, status: 'ready' }
 */
export function createPipelineRunner(
  deps: PipelineDeps,
  options: PipelineRunnerOptions = {},
): PipelineRunner {
  const steps: StepHandlers = { ...STEPS, ...options.steps };
  const queue = createLimiter(deps.config.limits.pipelineConcurrency);
  /** Per key, how many of its executions wait for a slot and how many run. */
  const active = new Map<string, { waiting: number; running: number }>();
  const count = (key: string, change: { waiting?: number; running?: number }) => {
    const now = active.get(key) ?? { waiting: 0, running: 0 };
    const next = {
      waiting: now.waiting + (change.waiting ?? 0),
      running: now.running + (change.running ?? 0),
    };
    if (next.waiting === 0 && next.running === 0) active.delete(key);
    else active.set(key, next);
  };
  const retryIntervalOverrides =
    options.retryDelayMs === undefined
      ? undefined
      : Object.fromEntries(TASK_NAMES.map((name) => [name, options.retryDelayMs as number]));

  async function execute(input: PipelineInput, emit: Listener): Promise<PipelineOutcome> {
    const seen: { documentId?: string; version?: number } = { documentId: input.documentId };
    let recorded = false;
    let register: RegisterOutput | undefined;
    /** Set once Activate ended well: it stored the usage with the version (or discarded the version). */
    let activated = false;
    const tracked = trackUsage(deps.providers);
    const stepDeps: PipelineDeps = {
      ...deps,
      providers: tracked.providers,
      usage: () => ({ ...tracked.usage }),
    };
    const handler =
      (name: TaskName) =>
      async (taskInput: Json): Promise<Json> => {
        const ids = { documentId: seen.documentId, version: seen.version };
        emit({ type: 'step-started', key: input.key, step: name, ...ids });
        const started = performance.now();
        const stepLog = () =>
          log.with({ documentId: seen.documentId, version: seen.version, key: input.key, step: name });
        try {
          const output = await steps[name](taskInput, stepDeps);
          if (name === 'Register') {
            register = output as RegisterOutput;
            seen.documentId = register.documentId;
            seen.version = register.version;
            if (register.outcome === 'rejected') recorded = true;
          }
          if (name === 'MarkFailed') recorded = true;
          if (name === 'Activate') activated = true;
          stepLog().debug('pipeline: step finished', { durationMs: Math.round(performance.now() - started) });
          emit({ type: 'step-finished', key: input.key, step: name, ...seen });
          return (output ?? null) as Json;
        } catch (error) {
          const failure = toStepError(error);
          stepLog().warn('pipeline: step failed', {
            durationMs: Math.round(performance.now() - started),
            ...errorFields(failure),
          });
          emit({ type: 'step-finished', key: input.key, step: name, ...seen, error: failure.message });
          throw failure;
        }
      };
    const handlers = Object.fromEntries(TASK_NAMES.map((name) => [name, handler(name)]));
    try {
      return await runMachine();
    } finally {
      if (register?.outcome === 'created' && !activated) await recordUsage(register, tracked.usage);
    }

    async function runMachine(): Promise<PipelineOutcome> {
      try {
        // Validated on first use, not at start: the validation is the slowest part of opening the runner.
        const result = (await runWithinLimits(
          await localMachine(),
          input as Json,
          { overrides: { taskResourceLocalHandlers: handlers, retryIntervalOverrides } },
          options.executionLimits,
        )) as RegisterOutput;
        if (result.outcome === 'unchanged' && result.reason) {
          return {
            documentId: result.documentId,
            version: result.version,
            status: 'failed',
            error: result.reason,
          };
        }
        const status = result.outcome === 'unchanged' ? 'unchanged' : 'ready';
        return { documentId: result.documentId, version: result.version, status };
      } catch (error) {
        // A Fail state carries the error name and the readable cause; anything else is reported as is.
        const failure = error instanceof Error && error.cause instanceof Error ? error.cause : error;
        const reason = reasonOf(failure);
        if (!recorded) await recordUnhandled(input, register, failure, reason);
        return { ...seen, status: 'failed', error: reason };
      }
    }
  }

  /** What a failed execution's model calls cost, in its version's stats (Activate stores a ready one's). */
  async function recordUsage(ref: VersionRef, usage: ExecutionUsage): Promise<void> {
    try {
      await mergeVersionStats(deps.db, ref, {
        chatCalls: usage.chatCalls,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        embedCalls: usage.embedCalls,
      });
    } catch (error) {
      log.error('pipeline: could not record the usage', { ...ref, ...errorFields(error) });
    }
  }

  /** Failures the definition cannot catch (States.Runtime, a failing MarkFailed) are recorded here. */
  async function recordUnhandled(
    input: PipelineInput,
    register: RegisterOutput | undefined,
    failure: unknown,
    reason: string,
  ): Promise<void> {
    const name = failure instanceof Error ? failure.name : 'Error';
    try {
      await steps.MarkFailed({ ...input, register, error: { Error: name, Cause: reason } }, deps);
    } catch (error) {
      log.error('pipeline: could not record the failure', {
        key: input.key,
        documentId: register?.documentId ?? input.documentId,
        version: register?.version,
        ...errorFields(error),
      });
    }
  }

  return {
    run(raw, onEvent) {
      const emit: Listener = (event) => {
        for (const listener of [options.onEvent, onEvent]) {
          try {
            listener?.(event);
          } catch (error) {
            log.error('pipeline: event listener failed', errorFields(error));
          }
        }
      };
      const parsed = pipelineInputSchema.safeParse(raw);
      if (!parsed.success) {
        const outcome: PipelineOutcome = {
          status: 'failed',
          error: `invalid pipeline input: ${parsed.error.message}`,
        };
        emit({ type: 'finished', key: String(raw?.key), outcome });
        return Promise.resolve(outcome);
      }
      const input = parsed.data;
      emit({ type: 'queued', key: input.key });
      count(input.key, { waiting: 1 });
      return queue.run(async () => {
        count(input.key, { waiting: -1, running: 1 });
        emit({ type: 'started', key: input.key });
        let outcome: PipelineOutcome;
        try {
          outcome = await execute(input, emit);
        } catch (error) {
          log.error('pipeline: execution failed', { key: input.key, ...errorFields(error) });
          outcome = { documentId: input.documentId, status: 'failed', error: reasonOf(error) };
        } finally {
          count(input.key, { running: -1 });
        }
        emit({ type: 'finished', key: input.key, outcome });
        return outcome;
      });
    },
    idle: () => queue.idle(),
    activity(key) {
      const now = active.get(key);
      if (!now) return 'none';
      return now.running > 0 ? 'running' : 'waiting';
    },
  };
}

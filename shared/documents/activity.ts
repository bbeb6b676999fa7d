import type { DocumentSummary } from './queries.ts';

/** Whether a key's pipeline is executing in this process, waiting there for a slot, or not there at all. */
export type PipelineActivity = 'running' | 'waiting' | 'none';

/**
 * Whether anything works on a queued or processing document right now: `running` (its pipeline is
 * executing in this process), `waiting` (queued here behind other files for a free slot), `stopped`
 * (nothing here works on it: a process stopped before finishing it; it resumes when the server or
 * `dropqa ingest` starts).
 */
export type DocumentActivity = 'running' | 'waiting' | 'stopped';

/** What a process can say of a key's pipeline; `null` where another service runs them (AWS). */
export type ActivityOf = (key: string) => PipelineActivity | null;

/** `doc` with its `activity` when queued or processing and the process can tell; otherwise as is. */
export function withActivity<T extends DocumentSummary>(doc: T, activityOf: ActivityOf): T {
  if (doc.status !== 'queued' && doc.status !== 'processing') return doc;
  const now = activityOf(doc.key);
  if (now === null) return doc;
  return { ...doc, activity: now === 'none' ? 'stopped' : now };
}

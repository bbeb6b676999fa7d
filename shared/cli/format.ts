import type { DocumentSummary, VersionSummary } from '../documents/index.ts';

/** `12.5 KB`, `300 B`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** `2026-11-22 07:12` in UTC; dates arrive as strings over HTTP. */
export function formatDate(date: Date | string | null): string {
  if (!date) return '-';
  return new Date(date).toISOString().slice(0, 16).replace('T', ' ');
}

const ACTIVITY_TEXT = {
  running: 'running',
  waiting: 'waiting for a free slot',
  stopped: 'stopped: nothing is working on it; `dropqa serve` or `dropqa ingest` picks it up when started',
} as const;

/**
 * A document's status as people read it: `processing (parse, running)`, `queued (waiting for a
 * free slot)`, `queued (stopped: ...)`, `failed: <reason>`.
 */
export function formatStatus(doc: Pick<DocumentSummary, 'status' | 'statusDetail' | 'activity'>): string {
  if (doc.status === 'processing' || doc.status === 'queued') {
    const detail = [doc.statusDetail, doc.activity && ACTIVITY_TEXT[doc.activity]].filter(Boolean);
    return detail.length > 0 ? `${doc.status} (${detail.join(', ')})` : doc.status;
  }
  return doc.statusDetail ? `${doc.status}: ${doc.statusDetail}` : doc.status;
}

/** The ingestion stats of a version, in the order a reader wants them. */
export function formatStats(stats: VersionSummary['stats']): string {
  const parts: string[] = [];
  const add = (label: string, value: number | undefined) => {
    if (value !== undefined) parts.push(`${value} ${label}`);
  };
  add('sections', stats.sections);
  add('paragraphs', stats.paragraphs);
  add('images', stats.images);
  add('tables', stats.tables);
  add('topics', stats.topics);
  // chatCalls is counted by the runner around every step; older versions only have the steps' counts.
  const calls =
    stats.chatCalls ?? (stats.modelCalls ?? 0) + (stats.topicModelCalls ?? 0) + (stats.imageModelCalls ?? 0);
  if (calls > 0 || stats.chatCalls !== undefined || stats.modelCalls !== undefined) {
    parts.push(`${calls} model calls`);
  }
  const tokens = Object.entries(stats)
    .filter(([name]) => /tokens/i.test(name))
    .reduce((sum, [, value]) => sum + value, 0);
  if (tokens > 0) parts.push(`${tokens} tokens`);
  if (stats.durationMs !== undefined) parts.push(`${(stats.durationMs / 1000).toFixed(1)} s`);
  return parts.join(', ');
}

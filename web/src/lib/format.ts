/** 1536 -> "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A date as the reader's locale shows it, short. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** 0.873 -> "87%". */
export function formatPercent(value: number): string {
  return `${Math.round(Math.max(0, Math.min(1, value)) * 100)}%`;
}

/** The link to a document's detail, opened at a section when a citation gives one. */
export function documentLink(
  id: string,
  options: { section?: string; node?: string; version?: number } = {},
) {
  const query: Record<string, string> = {};
  if (options.section) query.section = options.section;
  if (options.node) query.node = options.node;
  if (options.version !== undefined) query.version = String(options.version);
  return { name: 'document', params: { id }, query };
}

/** plural(1, 'image') -> "1 image"; plural(3, 'image') -> "3 images". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

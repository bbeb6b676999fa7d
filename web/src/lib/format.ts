import { currentLocale } from '../i18n/index.ts';

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** 1536 -> "1.5 KB" (in the page's language, through Intl). */
export function formatBytes(bytes: number): string {
  let value = Number.isFinite(bytes) ? Math.max(0, bytes) : 0;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(currentLocale(), {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 || value >= 10 ? 0 : 1,
  }).format(value);
}

/** A date as the page's language shows it, short. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? ''
    : new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A count in the page's language: 12345 -> "12,345". */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLocale()).format(value);
}

/** 0.873 -> "87%". */
export function formatPercent(value: number): string {
  return new Intl.NumberFormat(currentLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(
    Math.max(0, Math.min(1, value)),
  );
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

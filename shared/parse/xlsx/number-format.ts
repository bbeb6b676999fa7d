/**
 * Whether an Excel number format shows a date or time. Quoted literals, escaped characters and
 * bracketed parts (colours, locales, conditions) are removed first, so `"days"` or `[Red]` do not
 * count; elapsed-time formats (`[h]:mm`) still do through their `mm`.
 *
 * @example isDateFormat('yyyy-mm-dd') // true
 * @example isDateFormat('#,##0.00 "d"') // false
 */
export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  const bare = format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** Whether an Excel number format shows its number as a percentage (a `%` outside quotes). */
export function isPercentFormat(format: string | undefined): boolean {
  if (!format) return false;
  return format
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .includes('%');
}

const DAY_MS = 86_400_000;
/** Serial day 0 of each date system, in days since 1970-01-01 (1900 counts the fake 1900-02-29). */
const EPOCH_1900 = 25_569;
const EPOCH_1904 = 24_107;

/**
 * An Excel serial date as an ISO date: `YYYY-MM-DD`, with ` HH:MM:SS` when it is not midnight.
 * Serials are wall-clock values without a zone, so they are read and written in UTC.
 *
 * @example serialToIsoDate(45352.5, false) // '2024-03-01 12:00:00'
 */
export function serialToIsoDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - (date1904 ? EPOCH_1904 : EPOCH_1900)) * DAY_MS);
  return dateToIso(new Date(ms));
}

/** A wall-clock `Date` (as exceljs builds them, in UTC) as `YYYY-MM-DD`, with the time when not midnight. */
export function dateToIso(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  // Serials carry sub-millisecond float noise; round to the second before printing.
  const rounded = new Date(Math.round(date.getTime() / 1000) * 1000);
  const iso = rounded.toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  return time === '00:00:00' ? day : `${day} ${time}`;
}

/** An object a raw reader needs cannot be read from the file: its caller falls back to pdf.js. */
export class UnreadableObject extends Error {}

/** The value, or an `UnreadableObject` thrown when it is missing. */
export function must<T>(value: T | undefined): T {
  if (value === undefined) throw new UnreadableObject();
  return value;
}

/** A byte count for messages: `640 KB`, `12 MB`. */
export function sizeText(bytes: number): string {
  const kb = bytes / 1024;
  return kb < 1024 ? `${Math.round(kb)} KB` : `${Math.round(kb / 1024)} MB`;
}

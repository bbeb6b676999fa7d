/** Reading PDF object syntax (dictionaries, references, names, numbers) from latin1 text. */

const SPACE = new Set(['\0', '\t', '\n', '\f', '\r', ' ']);
const DELIMITER = new Set(['(', ')', '<', '>', '[', ']', '{', '}', '/', '%']);
const INDIRECT_TAIL = /^\s+(\d+)\s+R(?![^\s()<>[\]{}/%])/;

/** Skips whitespace and comments from `at`. */
export function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const char = text[i] as string;
    if (SPACE.has(char)) i++;
    else if (char === '%') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else break;
  }
  return i;
}

function regularEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && !SPACE.has(text[i] as string) && !DELIMITER.has(text[i] as string)) i++;
  return i;
}

function literalStringEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** Where the object that starts at `at` (after any whitespace) ends: a dictionary, array, string, name, number, reference or keyword. */
export function valueEnd(text: string, at: number): number {
  const i = skipSpace(text, at);
  const char = text[i];
  if (char === undefined) return i;
  if (char === '(') return literalStringEnd(text, i);
  if (char === '/') return regularEnd(text, i + 1);
  if (char === '[' || (char === '<' && text[i + 1] === '<')) {
    const close = char === '[' ? ']' : '>>';
    let j = i + close.length;
    for (;;) {
      j = skipSpace(text, j);
      if (j >= text.length) return text.length;
      if (text.startsWith(close, j)) return j + close.length;
      const next = valueEnd(text, j);
      // A stray delimiter (`)`, `>`, `}`) must not stall the scan.
      j = next > j ? next : j + 1;
    }
  }
  if (char === '<') {
    const end = text.indexOf('>', i);
    return end === -1 ? text.length : end + 1;
  }
  const end = regularEnd(text, i);
  if (end === i) return i + 1;
  if (/^\d+$/.test(text.slice(i, end))) {
    const tail = INDIRECT_TAIL.exec(text.slice(end, end + 24));
    if (tail) return end + tail[0].length;
  }
  return end;
}

/** The top-level entries of a dictionary (`<< /Key value ... >>`), each value as its source text. */
export function dictionaryEntries(dictionary: string): Map<string, string> {
  const entries = new Map<string, string>();
  let i = skipSpace(dictionary, 0);
  if (!dictionary.startsWith('<<', i)) return entries;
  i += 2;
  for (;;) {
    i = skipSpace(dictionary, i);
    if (i >= dictionary.length || dictionary.startsWith('>>', i)) return entries;
    if (dictionary[i] !== '/') {
      i = Math.max(valueEnd(dictionary, i), i + 1);
      continue;
    }
    const keyEnd = regularEnd(dictionary, i + 1);
    const key = dictionary.slice(i + 1, keyEnd);
    const start = skipSpace(dictionary, keyEnd);
    const end = valueEnd(dictionary, start);
    entries.set(key, dictionary.slice(start, end));
    i = Math.max(end, keyEnd);
  }
}

/** The object number of a reference (`12 0 R`), or undefined for any other value. */
export function refNumber(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d+)\s+\d+\s+R\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** A name's text without its slash and with `#xx` escapes decoded (`/Arial#20Bold` -> `Arial Bold`). */
export function nameText(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^\s*\/(\S*)\s*$/.exec(value);
  return match?.[1]?.replace(/#([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** A direct number, or undefined for a reference or any other value. */
export function numberValue(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** The object numbers of every reference in a value (a dictionary of references, an array). */
export function refNumbers(value: string): number[] {
  return [...value.matchAll(/(\d+)\s+\d+\s+R(?![^\s()<>[\]{}/%])/g)].map((match) => Number(match[1]));
}

import { constants, inflateSync } from 'node:zlib';
import { dictionaryEntries, nameText, numberValue, refNumber, skipSpace, valueEnd } from './cos.ts';

/** A PDF's indirect objects read straight from its bytes, without pdf.js. */
export interface RawObjects {
  /** The dictionary of object `num` as text (`<< ... >>`); undefined when it is not found or not a dictionary. */
  dictionary(num: number): string | undefined;
  /** The value of object `num` as text (a dictionary, an array, a number, ...); undefined when it is not found. */
  value(num: number): string | undefined;
  /** The decoded data of stream object `num`: unfiltered or FlateDecode only, else undefined. */
  stream(num: number): Uint8Array | undefined;
}

/** Dictionaries this reader looks at (pages, resources, fonts, image headers) are small; a longer one is not read. */
const MAX_DICTIONARY = 1 << 20;

function isSpaceByte(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** The number of the object whose `N G obj` header ends with the `obj` at `at`, if it is one. */
function headerNumber(bytes: Buffer, at: number): number | undefined {
  if (!isSpaceByte(bytes[at - 1]) && bytes[at - 1] !== undefined) return undefined;
  let i = at - 1;
  while (isSpaceByte(bytes[i])) i--;
  if (!isDigit(bytes[i])) return undefined;
  while (isDigit(bytes[i])) i--;
  if (!isSpaceByte(bytes[i])) return undefined;
  while (isSpaceByte(bytes[i])) i--;
  const end = i + 1;
  while (isDigit(bytes[i])) i--;
  if (end === i + 1 || (i >= 0 && !isSpaceByte(bytes[i]) && bytes[i] !== 0x3e)) return undefined;
  return Number(bytes.toString('latin1', i + 1, end));
}

interface ObjectIndex {
  /** Where each object's body starts (just after `obj`); a later definition (an incremental update) wins. */
  offsets: Map<number, number>;
  /** Every header in file order, to find the object a position falls in. */
  headers: { at: number; num: number }[];
}

function indexObjects(bytes: Buffer): ObjectIndex {
  const offsets = new Map<number, number>();
  const headers: { at: number; num: number }[] = [];
  let at = bytes.indexOf('obj', 0, 'latin1');
  while (at !== -1) {
    const after = bytes[at + 3];
    if (after === undefined || isSpaceByte(after) || after === 0x3c || after === 0x5b || after === 0x2f) {
      const num = headerNumber(bytes, at);
      if (num !== undefined) {
        offsets.set(num, at + 3);
        headers.push({ at: at + 3, num });
      }
    }
    at = bytes.indexOf('obj', at + 3, 'latin1');
  }
  return { offsets, headers };
}

/** The object whose body holds position `at`: the last header before it. */
function objectAt(headers: readonly { at: number; num: number }[], at: number): number | undefined {
  let low = 0;
  let high = headers.length - 1;
  let found: number | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const header = headers[middle] as { at: number; num: number };
    if (header.at <= at) {
      found = header.num;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The first value in `text`; undefined when a dictionary or array in it is not closed. */
function valueText(text: string): string | undefined {
  const start = skipSpace(text, 0);
  const value = text.slice(start, valueEnd(text, start));
  if (value.startsWith('<<') && !value.endsWith('>>')) return undefined;
  if (value.startsWith('[') && !value.endsWith(']')) return undefined;
  return value === '' ? undefined : value;
}

function dictionaryText(text: string | undefined): string | undefined {
  return text?.startsWith('<<') ? text : undefined;
}

function inflate(data: Uint8Array): Uint8Array | undefined {
  try {
    // Sync flush: a stream cut short by a wrong /Length still gives what it holds.
    return inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
}

/**
 * Reads a PDF's objects from its bytes, on first use: plain objects through a scan for their `N G obj` headers
 * (no cross-reference table needed, so a damaged table does not matter), compressed ones by
 * inflating the object streams (`/Type /ObjStm`) the first time an object is not found plain.
 * Encrypted object streams do not inflate and their objects stay unknown: callers treat an unknown
 * object as "anything may be there".
 */
export function readRawObjects(pdf: Uint8Array): RawObjects {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let index: ObjectIndex | undefined;
  let compressed: Map<number, string> | undefined;

  /** The scan runs on the first lookup, so that a reader nobody asks costs nothing. */
  function indexed(): ObjectIndex {
    index ??= indexObjects(bytes);
    return index;
  }

  function plainValue(num: number): string | undefined {
    const at = indexed().offsets.get(num);
    if (at === undefined) return undefined;
    const window = bytes.toString('latin1', at, Math.min(bytes.length, at + 4096));
    // A value longer than the first window is read again whole.
    return (
      valueText(window) ??
      (window.length === 4096
        ? valueText(bytes.toString('latin1', at, Math.min(bytes.length, at + MAX_DICTIONARY)))
        : undefined)
    );
  }

  function plainDictionary(num: number): string | undefined {
    return dictionaryText(plainValue(num));
  }

  function streamBytes(num: number): Uint8Array | undefined {
    const at = indexed().offsets.get(num);
    const dictionary = plainDictionary(num);
    if (at === undefined || dictionary === undefined) return undefined;
    const entries = dictionaryEntries(dictionary);
    let start = bytes.indexOf('stream', at + dictionary.length, 'latin1');
    if (start === -1 || start - at > dictionary.length + 64) return undefined;
    start += 'stream'.length;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    const length = numberValue(entries.get('Length'));
    const endMark = bytes.indexOf('endstream', start, 'latin1');
    const end = length !== undefined && start + length <= bytes.length ? start + length : endMark;
    if (end < start) return undefined;
    const data = bytes.subarray(start, end);
    const filter = entries.get('Filter')?.replace(/^\[\s*|\s*\]$/g, '');
    if (filter === undefined) return data;
    if (nameText(filter) !== 'FlateDecode' || entries.has('DecodeParms')) return undefined;
    return inflate(data);
  }

  function objectStreams(): Map<number, string> {
    const found = new Map<number, string>();
    const containers = new Set<number>();
    for (
      let at = bytes.indexOf('/ObjStm', 0, 'latin1');
      at !== -1;
      at = bytes.indexOf('/ObjStm', at + 7, 'latin1')
    ) {
      const num = objectAt(indexed().headers, at);
      if (num !== undefined) containers.add(num);
    }
    for (const num of containers) {
      const dictionary = plainDictionary(num);
      if (dictionary === undefined) continue;
      const entries = dictionaryEntries(dictionary);
      if (nameText(entries.get('Type')) !== 'ObjStm') continue;
      const count = numberValue(entries.get('N')) ?? 0;
      const first = numberValue(entries.get('First')) ?? 0;
      const data = streamBytes(num);
      if (!data) continue;
      const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
      const header = text.slice(0, first).trim().split(/\s+/).map(Number);
      for (let i = 0; i < count; i++) {
        const objectNumber = header[2 * i];
        const offset = header[2 * i + 1];
        if (objectNumber === undefined || offset === undefined || Number.isNaN(objectNumber + offset)) break;
        const next = header[2 * i + 3];
        found.set(objectNumber, text.slice(first + offset, next === undefined ? text.length : first + next));
      }
    }
    return found;
  }

  function value(num: number): string | undefined {
    if (indexed().offsets.has(num)) return plainValue(num);
    compressed ??= objectStreams();
    const body = compressed.get(num);
    return body === undefined ? undefined : valueText(body);
  }

  return {
    dictionary: (num) => dictionaryText(value(num)),
    value,
    stream: streamBytes,
  };
}

/** A value given directly or by reference. */
export function resolveValue(objects: RawObjects, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ref = refNumber(value);
  return ref === undefined ? value.trim() : objects.value(ref);
}

/** A dictionary given directly or by reference. */
export function resolveDictionary(objects: RawObjects, value: string | undefined): string | undefined {
  return dictionaryText(resolveValue(objects, value));
}

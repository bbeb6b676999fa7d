import { constants, inflateRawSync } from 'node:zlib';
import { compressedEntryData, type ZipEntry } from './zip.ts';

/**
 * Compressed bytes read from the start of each part: a prolog longer than what they inflate to is
 * refused too, so the bound holds against padding. Deflate expands at most ~1,032 times, so the
 * output stays under ~1 MB.
 */
const PREFIX_BYTES = 1024;
const MAX_PREFIX_OUTPUT = 2 * 1024 * 1024;

/** What the start of an XML part holds before its root element. */
export type XmlProlog = 'plain' | 'doctype' | 'unfinished';

/**
 * Reads an XML text's prolog (declaration, comments, processing instructions, whitespace) and says
 * whether a document type declaration comes before the root element. OOXML parts never have one;
 * a DTD is how entity-expansion attacks ("billion laughs") get in.
 *
 * @example xmlProlog('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>') // 'doctype'
 */
export function xmlProlog(text: string): XmlProlog {
  let at = 0;
  for (;;) {
    while (at < text.length && /\s|\uFEFF/.test(text[at] ?? '')) at++;
    if (at >= text.length) return 'unfinished';
    if (text.startsWith('<?', at)) {
      const end = text.indexOf('?>', at + 2);
      if (end < 0) return 'unfinished';
      at = end + 2;
    } else if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end < 0) return 'unfinished';
      at = end + 3;
    } else if (text.startsWith('<!', at)) {
      return 'doctype';
    } else {
      return 'plain';
    }
  }
}

function decodePrefix(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

/** The first bytes of an entry, inflated from a bounded prefix of its compressed data. */
function entryPrefix(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = compressedEntryData(bytes, entry);
  if (entry.method === 0) return data.subarray(0, PREFIX_BYTES);
  // A sync flush returns what the truncated input decodes to instead of failing at its end.
  return inflateRawSync(data.subarray(0, PREFIX_BYTES), {
    finishFlush: constants.Z_SYNC_FLUSH,
    maxOutputLength: MAX_PREFIX_OUTPUT,
  });
}

/**
 * The prolog of one XML entry of an archive, read from a bounded prefix of it: 'unfinished' means
 * the prefix ended before the root element (a prolog no real Office part has).
 */
export function entryXmlProlog(bytes: Uint8Array, entry: ZipEntry): XmlProlog {
  const prefix = entryPrefix(bytes, entry);
  const prolog = xmlProlog(decodePrefix(prefix));
  // A whole part shorter than the prefix with no root element is empty, not padded.
  if (prolog === 'unfinished' && prefix.length >= entry.uncompressedSize) return 'plain';
  return prolog;
}

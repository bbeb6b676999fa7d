import { Document, Packer, Paragraph } from 'docx';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { detectFileType } from '#shared/parse/detect.ts';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';
import { type ZipFixtureEntry, zipBytes } from './fixtures.ts';

/** Hostile-input helpers: what the Parse step does with a file, and the reason it fails with. */

/** Detects by content and parses, as the Parse step does. */
export async function handle(
  bytes: Uint8Array,
  filename: string,
  limits: Partial<ParseLimits> = {},
): Promise<ParsedDocument> {
  const type = detectFileType(bytes, filename);
  return parseDocument({ bytes, filename, limits: { ...DEFAULT_PARSE_LIMITS, ...limits } }, type);
}

/** The `UnsupportedDocumentError` message a file fails with; throws if it parses or fails otherwise. */
export async function reasonOf(
  bytes: Uint8Array,
  filename: string,
  limits: Partial<ParseLimits> = {},
): Promise<string> {
  const outcome = await handle(bytes, filename, limits).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof UnsupportedDocumentError)) {
    throw new Error(`expected an UnsupportedDocumentError for ${filename}, got ${String(outcome)}`);
  }
  return outcome.message;
}

/** A small real Word document. */
export async function smallDocx(text = 'Hello from a generated document.'): Promise<Uint8Array> {
  const document = new Document({ sections: [{ children: [new Paragraph(text)] }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** An OLE compound-file header, optionally with the stream name an encrypted OOXML package has. */
export function oleBytes(encrypted: boolean): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  if (encrypted) bytes.set(Buffer.from('EncryptedPackage', 'utf16le'), 1024);
  else bytes.set(Buffer.from('WordDocument', 'utf16le'), 1024);
  return bytes;
}

/** Deterministic pseudo-random bytes (xorshift), the same on every run. */
export function randomBytes(length: number, seed = 12345): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** XML with a "billion laughs" DTD in front of `root`: ten levels of ten-fold entity references. */
export function billionLaughs(root: string): string {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) {
    levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  }
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!DOCTYPE lolz [${levels.join('')}]>\n${root}`;
}

/** An archive re-zipped with its own entries and then `extra` ones. */
export function withEntries(bytes: Uint8Array, extra: ZipFixtureEntry[]): Uint8Array {
  const own = readZipDirectory(bytes).map((entry) => ({
    name: entry.name,
    data: new Uint8Array(readZipEntry(bytes, entry, 1 << 24)),
    deflate: true,
  }));
  return zipBytes([...own, ...extra]);
}

/**
 * A copy of an archive whose directory and local header declare `declared` uncompressed bytes for
 * entry `name`, whatever it really inflates to: how a zip bomb slips past checks on declared sizes.
 */
export function lieAboutSize(bytes: Uint8Array, name: string, declared: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  const wanted = Buffer.from(name, 'utf8');
  for (let at = 0; at + 46 <= out.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    if (!Buffer.from(out.subarray(at + 46, at + 46 + nameLength)).equals(wanted)) continue;
    view.setUint32(at + 24, declared, true);
    view.setUint32(view.getUint32(at + 42, true) + 22, declared, true);
    return out;
  }
  throw new Error(`no entry ${name}`);
}

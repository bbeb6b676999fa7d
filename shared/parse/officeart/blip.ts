import { inflateSync } from 'node:zlib';
import { childrenOf, type OfficeRecord, recordAt } from './records.ts';

/**
 * The pictures of Office 97-2003 drawings ([MS-ODRAW]): a BLIP record holds one picture's bytes after
 * one or two 16-byte UIDs, a bitmap's after a tag byte, a metafile's after a 34-byte header that may
 * say it is deflated. Word keeps them in the Data stream behind each inline picture, PowerPoint in the
 * Pictures stream, both listed by the drawing group's BStore (FBSE records).
 */

export const FBSE = 0xf007;
const BSTORE = 0xf001;
const BLIP_FIRST = 0xf018;
const BLIP_LAST = 0xf117;

/** BLIP record type -> what it holds. */
const KINDS: Record<number, { contentType: string; metafile: boolean; uids2: number }> = {
  61466: { contentType: 'image/x-emf', metafile: true, uids2: 0x3d5 },
  61467: { contentType: 'image/x-wmf', metafile: true, uids2: 0x217 },
  61468: { contentType: 'image/x-pict', metafile: true, uids2: 0x543 },
  61469: { contentType: 'image/jpeg', metafile: false, uids2: 0x46b },
  61470: { contentType: 'image/png', metafile: false, uids2: 0x6e1 },
  61471: { contentType: 'image/bmp', metafile: false, uids2: 0x7a9 },
  61481: { contentType: 'image/tiff', metafile: false, uids2: 0x6e5 },
  61482: { contentType: 'image/jpeg', metafile: false, uids2: 0x6e3 },
};
/** JPEG BLIPs with two UIDs may also use this instance. */
const JPEG_UIDS2 = 0x6e3;
const UID = 16;
const METAFILE_HEADER = 34;
const DEFLATED = 0x00;
const BITMAP_FILE_HEADER = 14;

/** A picture read from a BLIP, or why it could not be. */
export type Blip = { bytes: Uint8Array; contentType: string } | { reason: string };

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A device-independent bitmap made a .bmp file: the 14-byte file header it lacks, pointing past its palette. */
function bmpOf(dib: Uint8Array): Uint8Array {
  const d = view(dib);
  if (dib.length < 16) return dib;
  const headerSize = d.getUint32(0, true);
  const bitCount = headerSize >= 16 ? d.getUint16(14, true) : 24;
  const colours = headerSize >= 36 ? d.getUint32(32, true) : 0;
  const compression = headerSize >= 20 ? d.getUint32(16, true) : 0;
  const palette = (colours || (bitCount <= 8 ? 1 << bitCount : 0)) * 4;
  const masks = headerSize === 40 && (compression === 3 || compression === 6) ? 12 : 0;
  const out = new Uint8Array(BITMAP_FILE_HEADER + dib.length);
  const o = view(out);
  out.set([0x42, 0x4d]);
  o.setUint32(2, out.length, true);
  o.setUint32(10, BITMAP_FILE_HEADER + headerSize + palette + masks, true);
  out.set(dib, BITMAP_FILE_HEADER);
  return out;
}

/**
 * The picture a BLIP record holds: bitmaps as they are (a DIB given its file header), metafiles
 * inflated when deflated, at most `maxBytes` either way.
 */
export function readBlip(bytes: Uint8Array, record: OfficeRecord, maxBytes: number): Blip {
  const kind = KINDS[record.type];
  if (!kind) return { reason: `OfficeArt picture type 0x${record.type.toString(16)} is not known` };
  const uids =
    record.instance === kind.uids2 || (record.type === 0xf01d && record.instance === JPEG_UIDS2) ? 2 : 1;
  let at = record.start + uids * UID;
  if (!kind.metafile) {
    const data = bytes.subarray(at + 1, record.end);
    if (data.length === 0) return { reason: 'the picture is empty' };
    return { bytes: record.type === 0xf01f ? bmpOf(data) : data.slice(), contentType: kind.contentType };
  }
  if (at + METAFILE_HEADER > record.end) return { reason: 'the metafile header is cut off' };
  const size = view(bytes).getUint32(at, true);
  const compression = bytes[at + 32];
  at += METAFILE_HEADER;
  const data = bytes.subarray(at, record.end);
  if (compression !== DEFLATED) return { bytes: data.slice(), contentType: kind.contentType };
  if (size > maxBytes) return { reason: `the metafile would be ${size} bytes when inflated` };
  try {
    return {
      bytes: new Uint8Array(inflateSync(data, { maxOutputLength: maxBytes })),
      contentType: kind.contentType,
    };
  } catch {
    return { reason: 'the deflated metafile is corrupted' };
  }
}

/** Whether a record type is one of the BLIP types. */
export function isBlip(type: number): boolean {
  return type >= BLIP_FIRST && type <= BLIP_LAST;
}

/**
 * The picture an FBSE record points to: its embedded BLIP, else the BLIP at its offset in
 * `delayStream` (PowerPoint's Pictures stream).
 */
export function fbsePicture(
  stream: Uint8Array,
  fbse: OfficeRecord,
  delayStream: Uint8Array | undefined,
  maxBytes: number,
): Blip {
  const s = view(stream);
  if (fbse.end - fbse.start < 36) return { reason: 'its picture entry is cut off' };
  const nameBytes = stream[fbse.start + 33] ?? 0;
  const embedded = recordAt(s, fbse.start + 36 + nameBytes, fbse.end);
  if (embedded && isBlip(embedded.type)) return readBlip(stream, embedded, maxBytes);
  const size = s.getUint32(fbse.start + 20, true);
  const offset = s.getUint32(fbse.start + 28, true);
  if (!delayStream || size === 0) return { reason: 'its picture is not stored in the file' };
  const delayed = recordAt(view(delayStream), offset);
  if (!delayed || !isBlip(delayed.type)) return { reason: 'its picture is missing from the file' };
  return readBlip(delayStream, delayed, maxBytes);
}

/** The FBSE records of a drawing group's BStore, in order (a shape's `pib` counts them from 1). */
export function bstoreEntries(stream: DataView, drawingGroup: OfficeRecord, depth = 0): OfficeRecord[] {
  if (depth > 8) return [];
  for (const child of childrenOf(stream, drawingGroup)) {
    if (child.type === BSTORE) return childrenOf(stream, child).filter((entry) => entry.type === FBSE);
    if (child.isContainer) {
      const found = bstoreEntries(stream, child, depth + 1);
      if (found.length > 0) return found;
    }
  }
  return [];
}

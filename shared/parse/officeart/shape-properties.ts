import type { OfficeRecord } from './records.ts';

/** The OfficeArt property tables of a shape (OfficeArtFOPT and its secondary and tertiary tables). */
const PROPERTY_TABLES = new Set([0xf00b, 0xf121, 0xf122]);
const PIB = 0x0104;
const DESCRIPTION = 0x0381;
const PROPERTY = 6;

/** What a shape's properties say about its picture. */
export interface ShapePicture {
  /** The picture's 1-based index in the drawing group's BStore. */
  pib?: number;
  /** Its alternative text (wzDescription). */
  description?: string;
}

/** Whether a record is one of a shape's property tables. */
export function isPropertyTable(record: OfficeRecord): boolean {
  return PROPERTY_TABLES.has(record.type);
}

/**
 * A property table's picture (`pib`) and alternative text ([MS-ODRAW] 2.2.9): as many 6-byte
 * properties as the record's instance says, then the complex properties' data in the same order.
 */
export function shapePicture(stream: DataView, table: OfficeRecord): ShapePicture {
  const out: ShapePicture = {};
  let complex = table.start + table.instance * PROPERTY;
  for (let i = 0; i < table.instance; i++) {
    const at = table.start + i * PROPERTY;
    if (at + PROPERTY > table.end) break;
    const opid = stream.getUint16(at, true);
    const op = stream.getUint32(at + 2, true);
    const id = opid & 0x3fff;
    const isComplex = (opid & 0x8000) !== 0;
    if (id === PIB && !isComplex) out.pib = op;
    if (id === DESCRIPTION && isComplex && complex + op <= table.end) {
      const bytes = new Uint8Array(stream.buffer, stream.byteOffset + complex, op);
      out.description = new TextDecoder('utf-16le').decode(bytes).replace(/\0+$/, '').trim();
    }
    if (isComplex) complex += op;
  }
  return out;
}

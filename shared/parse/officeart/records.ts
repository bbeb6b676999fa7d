/** A record of a PowerPoint 97-2003 stream or an OfficeArt drawing ([MS-PPT] 2.3.1, [MS-ODRAW] 2.1.1): an 8-byte header, then its body. */
export interface OfficeRecord {
  type: number;
  instance: number;
  /** Where its body starts and ends in the stream. */
  start: number;
  end: number;
  isContainer: boolean;
}

const HEADER = 8;
const CONTAINER_VERSION = 0xf;

/** The record at `offset`, or undefined when its header or body runs past `limit`. */
export function recordAt(
  stream: DataView,
  offset: number,
  limit = stream.byteLength,
): OfficeRecord | undefined {
  if (offset + HEADER > limit) return undefined;
  const verAndInstance = stream.getUint16(offset, true);
  const length = stream.getUint32(offset + 4, true);
  const start = offset + HEADER;
  if (start + length > limit) return undefined;
  return {
    type: stream.getUint16(offset + 2, true),
    instance: verAndInstance >> 4,
    start,
    end: start + length,
    isContainer: (verAndInstance & 0xf) === CONTAINER_VERSION,
  };
}

/** The records from `start` to `end`, in order (a damaged one ends the list). */
export function recordsIn(stream: DataView, start: number, end: number): OfficeRecord[] {
  const out: OfficeRecord[] = [];
  let at = start;
  while (at < end) {
    const record = recordAt(stream, at, end);
    if (!record) break;
    out.push(record);
    at = record.end;
  }
  return out;
}

/** The direct children of a container, in order (a damaged child ends the list). */
export function childrenOf(stream: DataView, parent: OfficeRecord): OfficeRecord[] {
  return recordsIn(stream, parent.start, parent.end);
}

/** Every record under a container, depth first in stream order; `depth` bounds hostile nesting. */
export function* descendants(stream: DataView, parent: OfficeRecord, depth = 0): Generator<OfficeRecord> {
  if (depth > 32) return;
  for (const child of childrenOf(stream, parent)) {
    yield child;
    if (child.isContainer) yield* descendants(stream, child, depth + 1);
  }
}

/** A record of a PowerPoint 97-2003 stream ([MS-PPT] 2.3.1): an 8-byte header, then its body. */
export interface PptRecord {
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
export function recordAt(stream: DataView, offset: number, limit = stream.byteLength): PptRecord | undefined {
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

/** The direct children of a container, in order (a damaged child ends the list). */
export function childrenOf(stream: DataView, parent: PptRecord): PptRecord[] {
  const out: PptRecord[] = [];
  let at = parent.start;
  while (at < parent.end) {
    const record = recordAt(stream, at, parent.end);
    if (!record) break;
    out.push(record);
    at = record.end;
  }
  return out;
}

/** Every record under a container, depth first in stream order; `depth` bounds hostile nesting. */
export function* descendants(stream: DataView, parent: PptRecord, depth = 0): Generator<PptRecord> {
  if (depth > 32) return;
  for (const child of childrenOf(stream, parent)) {
    yield child;
    if (child.isContainer) yield* descendants(stream, child, depth + 1);
  }
}

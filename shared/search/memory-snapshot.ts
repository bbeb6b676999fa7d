import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import type { ImageDocument, IndexImage } from './memory-index.ts';

/**
 * The in-memory BM25 index written to a file, read back as typed arrays in well under a second
 * instead of loading every leaf's terms from the database (seconds per 50,000 paragraphs).
 *
 * Layout: `DQBM25S\n`, the header's byte length (u32), the CRC-32 of everything after these 16
 * bytes (u32), the header (JSON: stamp, documents, counts), zero padding to 8 bytes, then the
 * sections: postings (f64), ordinals, word lengths, gram lengths, per-term counts (u32), leaf ids and
 * terms (UTF-8, NUL-separated: Postgres text and lexemes never hold NUL). Typed arrays are stored in
 * the machine's byte order, which the header names.
 */
const MAGIC = Buffer.from('DQBM25S\n', 'latin1');
const PREFIX = 16;
/** Bumped whenever what the index derives from the database, or this layout, changes. */
export const SNAPSHOT_FORMAT = 1;

/** What a snapshot must match to be used: its format and analysis, and the corpus it was taken of. */
export interface SnapshotStamp {
  format: number;
  analyzerVersion: number;
  /** The corpus fingerprint of the documents the index held (`memory-sync.ts`). */
  fingerprint: string;
}

interface Header extends SnapshotStamp {
  endian: string;
  /** [id, version, collection, key, analyzerVersion, leaves] per document. */
  documents: [string, number, string, string, number, number][];
  leaves: number;
  terms: number;
  postings: number;
  nodeIdBytes: number;
  termBytes: number;
}

/** Why a snapshot was not used: missing, or unreadable (corrupt, truncated, of another format or analysis). */
export class SnapshotUnusableError extends Error {
  override name = 'SnapshotUnusableError';
  constructor(
    message: string,
    readonly missing = false,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
const padTo8 = (length: number) => (8 - (length % 8)) % 8;

/**
 * Writes the image with its stamp, atomically: to `<file>.tmp`, then renamed over `file`. Not
 * synced to disk: a file cut short by a power loss fails its checksum and is not used.
 *
 * @example await writeIndexSnapshot('.dropqa/bm25.snapshot', index.toImage(), stamp);
 */
export async function writeIndexSnapshot(
  file: string,
  image: IndexImage,
  stamp: SnapshotStamp,
): Promise<void> {
  const nodeIds = Buffer.from(image.nodeIds.join('\0'), 'utf8');
  const terms = Buffer.from(image.terms.join('\0'), 'utf8');
  const header: Header = {
    ...stamp,
    endian: endianness(),
    documents: image.documents.map((d) => [
      d.id,
      d.version,
      d.collection,
      d.key,
      d.analyzerVersion,
      d.leaves,
    ]),
    leaves: image.nodeIds.length,
    terms: image.terms.length,
    postings: image.postings.length,
    nodeIdBytes: nodeIds.length,
    termBytes: terms.length,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const body = [
    json,
    Buffer.alloc(padTo8(PREFIX + json.length)),
    bytesOf(image.postings),
    bytesOf(image.ordinals),
    bytesOf(image.lengths),
    bytesOf(image.gramLengths),
    bytesOf(image.counts),
    nodeIds,
    terms,
  ];
  const prefix = Buffer.alloc(PREFIX);
  MAGIC.copy(prefix);
  prefix.writeUInt32LE(json.length, 8);
  prefix.writeUInt32LE(
    body.reduce((crc, part) => crc32(part, crc), 0),
    12,
  );
  const temporary = `${file}.tmp`;
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(temporary, [prefix, ...body]);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * The image and stamp a snapshot holds; throws `SnapshotUnusableError` when it is missing, cut
 * short, corrupt (checksum, structure) or written on a machine of the other byte order.
 */
export async function readIndexSnapshot(file: string): Promise<{ image: IndexImage; stamp: SnapshotStamp }> {
  const bytes = await readWhole(file);
  const unusable = (why: string) => new SnapshotUnusableError(`${why}: ${file}`);
  if (bytes.length < PREFIX || !MAGIC.equals(bytes.subarray(0, MAGIC.length)))
    throw unusable('not a snapshot');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(8, true);
  if (crc32(bytes.subarray(PREFIX)) !== view.getUint32(12, true)) throw unusable('checksum mismatch');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + jsonLength)));
  } catch (error) {
    throw new SnapshotUnusableError(`unreadable header: ${file}`, false, { cause: error });
  }
  const counts = [header.leaves, header.terms, header.postings, header.nodeIdBytes, header.termBytes];
  if (!Array.isArray(header.documents) || !counts.every((n) => Number.isSafeInteger(n) && n >= 0))
    throw unusable('header without its counts');
  if (header.endian !== endianness()) throw unusable(`written ${header.endian}`);
  let at = PREFIX + jsonLength + padTo8(PREFIX + jsonLength);
  const take = <T>(length: number, make: (offset: number, length: number) => T): T => {
    const offset = at;
    at += length;
    if (at > bytes.length) throw unusable('cut short');
    return make(offset, length);
  };
  const postings = take(header.postings * 8, (o) => new Float64Array(bytes.buffer, o, header.postings));
  const u32 = (n: number) => take(n * 4, (o) => new Uint32Array(bytes.buffer, o, n));
  const ordinals = u32(header.leaves);
  const lengths = u32(header.leaves);
  const gramLengths = u32(header.leaves);
  const termCounts = u32(header.terms);
  const strings = (length: number, n: number) =>
    take(length, (o) => (n === 0 ? [] : new TextDecoder().decode(bytes.subarray(o, o + length)).split('\0')));
  const nodeIds = strings(header.nodeIdBytes, header.leaves);
  const terms = strings(header.termBytes, header.terms);
  const documents = header.documents.map(
    ([id, version, collection, key, analyzerVersion, leaves]): ImageDocument => ({
      id,
      version,
      collection,
      key,
      analyzerVersion,
      leaves,
    }),
  );
  const image = { documents, nodeIds, ordinals, lengths, gramLengths, terms, counts: termCounts, postings };
  const problem = inconsistency(image, at === bytes.length);
  if (problem) throw unusable(problem);
  const { format, analyzerVersion, fingerprint } = header;
  return { image, stamp: { format, analyzerVersion, fingerprint } };
}

/** What does not add up in an image read back (a writer's bug more than damage: the checksum matched). */
function inconsistency(image: IndexImage, exactLength: boolean): string | undefined {
  if (!exactLength) return 'longer than its header says';
  const leaves = image.documents.reduce((sum, d) => sum + d.leaves, 0);
  if (leaves !== image.nodeIds.length) return `${image.nodeIds.length} leaf ids for ${leaves} leaves`;
  if (image.terms.length !== image.counts.length)
    return `${image.terms.length} terms for ${image.counts.length} counts`;
  const postings = image.counts.reduce((sum, n) => sum + n, 0);
  if (postings !== image.postings.length) return `${image.postings.length} postings for ${postings} counted`;
  return undefined;
}

/** The file's bytes in a buffer of their own (aligned for the typed-array views). */
async function readWhole(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new SnapshotUnusableError(`no snapshot: ${file}`, true);
    throw error;
  });
  try {
    const { size } = await handle.stat();
    const bytes = new Uint8Array(size);
    for (let read = 0; read < size; ) {
      const { bytesRead } = await handle.read(bytes, read, size - read, read);
      if (bytesRead === 0) throw new SnapshotUnusableError(`cut short while read: ${file}`);
      read += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

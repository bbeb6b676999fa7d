import { type CollectionSettings, collectionOfKey } from '../access/collection-of-key.ts';
import type { Db } from '../db/index.ts';
import { localSequencer } from '../documents/sequencer.ts';
import { queueDocument } from '../documents/write.ts';
import { reasonOf, ValidationError } from '../errors.ts';
import { assertSafeKey } from '../storage/keys.ts';
import type { StagedFile } from '../storage/staging.ts';
import type { BlobStore } from '../storage/types.ts';
import { contentHash, findUnchanged, type KnownContent } from './unchanged.ts';

/**
 * A file to ingest: its bucket key and content, as bytes or as a file staged on disk (an upload,
 * which is never read into memory); `filename` defaults to the key's last segment.
 */
export type IngestFile = { key: string; filename?: string; contentType?: string } & (
  | { bytes: Uint8Array }
  | { staged: StagedFile }
);

export type SubmittedFile =
  | {
      key: string;
      documentId: string;
      /** `unchanged`: the same bytes as the document's latest version; nothing more happens. */
      status: 'queued' | 'unchanged';
      /** The unchanged version, when `unchanged`. */
      version?: number;
    }
  | {
      key: string;
      /** The bucket refused this file's key (it clashes with a folder or file there): nothing stored. */
      status: 'rejected';
      error: string;
      documentId?: undefined;
      version?: undefined;
    };

/** A key's turn to be written: the upload before it on the key has been read by its Register. */
export interface KeyTurn {
  /** True when the turn had to wait for an earlier upload (its version may now be current). */
  waited: boolean;
  /** Ends the turn: the next upload of the key may write. */
  release(): void;
}

/** A file written and its document queued: its execution is still to start. */
export interface QueuedFile {
  key: string;
  documentId: string;
  /** Taken right after the write, so executions of one key are ordered as their writes were. */
  sequencer: string;
  turn?: KeyTurn;
}

export interface SubmitOptions {
  /**
   * Waits for a key's turn before its file is written (the local service: otherwise a write replaces
   * the object before the earlier execution has read it). Without it files are written at once.
   */
  turn?: (key: string) => Promise<KeyTurn>;
  /**
   * Answers a file whose bytes are its document's latest version `unchanged`, with no execution
   * (the local service). Without it every file is queued and Register decides (AWS, where the
   * object's S3 event starts the execution whatever this answers).
   */
  answerUnchanged?: boolean;
  /** Hears each key just before its document is queued (the local service counts them as waiting). */
  onQueue?: (key: string) => void;
  /**
   * Told, before any file is written, how many files may be queued (those not known unchanged), so
   * that a bulk load can be prepared; then each file as soon as its document is queued, so that its
   * execution can start while the next files are written (the local service).
   */
  planned?: (files: number) => Promise<void>;
  onQueued?: (file: QueuedFile) => void;
}

/**
 * How files enter the pipeline, locally and in AWS: each key is checked, the file written to the
 * bucket (a staged file streamed, never read whole) and its live document queued (status `queued`),
 * in order. A file whose key the bucket refuses is `rejected` with the reason; the others go on. With `answerUnchanged` a file with its latest version's bytes is answered `unchanged`
 * (one query per 500 files, once more for a key whose turn waited). Starting executions is the
 * caller's: the local runner as each file is queued (`onQueued`), or S3 events in AWS.
 *
 * @example const { submitted } = await submitFiles(deps, [{ key: 'uploads/a.md', bytes }], { onQueued: start });
 */
export async function submitFiles(
  deps: { db: Db; store: BlobStore; config: { collections: CollectionSettings } },
  files: IngestFile[],
  options: SubmitOptions = {},
): Promise<{ submitted: SubmittedFile[] }> {
  for (const file of files) assertSafeKey(file.key);
  const hashes = options.answerUnchanged ? files.map(hashOf) : [];
  const known = options.answerUnchanged
    ? await findUnchanged(
        deps.db,
        files.map((file, i) => ({ key: file.key, hash: hashes[i] ?? '' })),
      )
    : new Map<string, KnownContent>();
  const submitted: SubmittedFile[] = [];
  await options.planned?.(files.length - known.size);
  for (const [i, file] of files.entries()) {
    const turn = await options.turn?.(file.key);
    try {
      await writeObject(deps.store, file);
    } catch (error) {
      // A key the bucket refuses fails this file alone; anything else (a full disk) stops the batch.
      if (!(error instanceof ValidationError)) throw error;
      turn?.release();
      submitted.push({ key: file.key, status: 'rejected', error: reasonOf(error) });
      continue;
    }
    const sequencer = localSequencer();
    if (options.answerUnchanged) {
      // After waiting, the latest version may be the upload we waited for: ask again.
      const same = turn?.waited
        ? (await findUnchanged(deps.db, [{ key: file.key, hash: hashes[i] ?? '' }])).get(file.key)
        : known.get(file.key);
      if (same) {
        // Unchanged bytes are never read by a Register: the next upload of the key may go on.
        turn?.release();
        submitted.push({ key: file.key, ...same, status: 'unchanged' });
        continue;
      }
    }
    options.onQueue?.(file.key);
    const filename = file.filename ?? file.key.slice(file.key.lastIndexOf('/') + 1);
    const collection = collectionOfKey(file.key, deps.config.collections);
    const doc = await queueDocument(deps.db, { key: file.key, filename, collection });
    submitted.push({ key: file.key, documentId: doc.id, status: 'queued' });
    options.onQueued?.({ key: file.key, documentId: doc.id, sequencer, ...(turn ? { turn } : {}) });
  }
  return { submitted };
}

function hashOf(file: IngestFile): string {
  return 'staged' in file ? file.staged.hash : contentHash(file.bytes);
}

function writeObject(store: BlobStore, file: IngestFile): Promise<void> {
  const options = { contentType: file.contentType };
  return 'staged' in file
    ? store.putFile(file.key, file.staged, options)
    : store.put(file.key, file.bytes, options);
}

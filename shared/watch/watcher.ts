import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { collectionOfKey } from '#shared/access/collection-of-key.ts';
import { createLimiter } from '#shared/async/limiter.ts';
import type { Config } from '#shared/config/index.ts';
import type { Db } from '#shared/db/client.ts';
import { deleteDocument, renameDocument } from '#shared/documents/index.ts';
import { reasonOf } from '#shared/errors.ts';
import { errorFields, log } from '#shared/log/logger.ts';
import type { IngestService } from '#shared/pipeline/ingest.ts';
import { contentHash, sameContent } from '#shared/pipeline/unchanged.ts';
import type { BlobStore } from '#shared/storage/types.ts';
import { formatBytes } from '#shared/text/format-bytes.ts';
import { hashFile, quietState, sameState, statOf } from './file-state.ts';
import { locate, type WatchedFolder, type WatchRules, watchedFolders, watchRules } from './folders.ts';
import { knownDocuments } from './known.ts';
import { recordRefusedFile } from './refused.ts';
import { watchRulesStatus } from './status.ts';
import type { WatchEvent, WatchFolderStatus, WatchStatus } from './types.ts';

export interface FolderWatcher {
  /** Starts watching, then reconciles what changed while stopped; resolves when that is done. */
  start(): Promise<void>;
  status(): Promise<WatchStatus>;
  /**
   * Follows one more folder (as `watch.directories` would), catching up with what it holds; a folder
   * already followed is left as it is. Resolves with its status once caught up.
   *
   * @throws ConfigError when it is not a folder or another watched folder has its name.
   */
  add(directory: string): Promise<WatchFolderStatus>;
  /** Resolves once nothing is pending (no event waiting for its debounce, rename window or turn). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface WatchDeps {
  db: Db;
  store: BlobStore;
  ingest: IngestService;
  /** `limits.maxFileBytes`: a larger file is refused before it is read. */
  config: { limits: Pick<Config['limits'], 'maxFileBytes'>; collections: Config['collections'] };
}

type Job = { kind: 'upsert' | 'remove'; folder: WatchedFolder; relativePath: string };

/**
 * Watches local folders (chokidar) and keeps their documents in step with the files: a file added or
 * changed is ingested under `watch/<folder name>/<relative path>` once it has been left alone for
 * the quiet period (`watch.debounceMs`: no write, no rename onto it); a deleted file's document is
 * deleted, unless a file with the same bytes appears within the quiet period and `watch.renameWindowMs` (a rename or
 * move: the document keeps its history under the new key). Events for one file coalesce; at most
 * `watch.concurrency` files are worked on at once and the rest wait in the queue, however many
 * arrive. On start, a reconciliation catches up with everything that changed while DropQA was
 * stopped. Local folders only.
 *
 * The same rules hold live and at the start-up reconciliation (docs/versions.md#watched-folders):
 * - symbolic links are never followed, whether they point inside the folder or out of it: a link
 *   is not a file of the folder (a file replaced by a link is a file gone), and a linked folder is
 *   not entered;
 * - a file larger than `limits.maxFileBytes` is refused from its size, before it is read or copied:
 *   its document gets a failed version saying so, and nothing goes to the bucket;
 * - a file that changed while it was read is not ingested from that read: it is read again once
 *   quiet.
 *
 * @example
 * const watcher = createFolderWatcher(rt, { ...rt.config.watch, directories: ['./docs'] });
 * await watcher.start(); // docs/a.md is now the document watch/docs/a.md
 */
export function createFolderWatcher(
  deps: WatchDeps,
  settings: Config['watch'],
  onEvent: (event: WatchEvent) => void = () => {},
): FolderWatcher {
  const folders = watchedFolders(settings.directories);
  const rules = watchRules(settings);
  const maxFileBytes = deps.config.limits.maxFileBytes;
  const queue = createLimiter(settings.concurrency);
  const pending = new Map<string, Job>();
  const queued = new Set<string>();
  const running = new Set<string>();
  /** Files gone, waiting out the rename window: key → its job and timer. */
  const removals = new Map<string, { job: Job; timer: NodeJS.Timeout }>();
  const lastSync = new Map<WatchedFolder, Date>();
  const lastError = new Map<WatchedFolder, string>();
  let watcher: FSWatcher | undefined;
  let ready = false;
  let closed = false;

  const keyOf = (job: Pick<Job, 'folder' | 'relativePath'>) => job.folder.prefix + job.relativePath;
  const pathOf = (job: Job) => join(job.folder.dir, ...job.relativePath.split('/'));
  const emit = (event: WatchEvent) => {
    try {
      onEvent(event);
    } catch (error) {
      log.error('watch: event listener failed', errorFields(error));
    }
  };

  function schedule(job: Job): void {
    const key = keyOf(job);
    pending.set(key, job);
    if (queued.has(key) || running.has(key) || closed) return;
    queued.add(key);
    void queue.run(() => run(key));
  }

  async function run(key: string): Promise<void> {
    queued.delete(key);
    const job = pending.get(key);
    pending.delete(key);
    if (!job) return;
    running.add(key);
    try {
      const refused = job.kind === 'upsert' ? await upsert(job) : await remove(job);
      if (refused) lastError.set(job.folder, `${key}: ${refused}`);
      else lastError.delete(job.folder);
    } catch (error) {
      lastError.set(job.folder, `${key}: ${reasonOf(error)}`);
      emit({ action: 'failed', key, error: reasonOf(error) });
    } finally {
      running.delete(key);
      lastSync.set(job.folder, new Date());
      const next = pending.get(key);
      if (next) {
        pending.delete(key);
        schedule(next);
      }
    }
  }

  /** Ingests the file of `job` once quiet; returns the reason when it is refused. */
  async function upsert(job: Job): Promise<string | undefined> {
    const key = keyOf(job);
    const path = pathOf(job);
    // Gone again before its turn: its removal (if any) is on its way.
    const before = await quietState(path, settings.debounceMs);
    if (!before) return undefined;
    if (!before.isFile()) {
      // A link (never followed) or a folder where the file was: the file is gone.
      if (before.isSymbolicLink()) fileGone(job);
      return undefined;
    }
    // Written back under its own name (an editor's save: delete, then create): a change, not a removal.
    const own = removals.get(key);
    if (own) {
      clearTimeout(own.timer);
      removals.delete(key);
    }
    if (before.size > maxFileBytes) return refuse(job, before.size);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const after = await statOf(path);
    if (!after || !sameState(before, after) || bytes.length !== before.size) {
      // Written while it was read: these bytes may be half old, half new. Read it again once quiet.
      log.info('watch: the file changed while it was read; reading it again', { key });
      schedule(job);
      return undefined;
    }
    if (await renamedFrom(key, bytes)) return undefined;
    const [outcome] = await deps.ingest.ingest([{ key, bytes }]);
    if (!outcome) return undefined;
    emit({
      action:
        outcome.status === 'unchanged' ? 'unchanged' : outcome.status === 'failed' ? 'failed' : 'ingested',
      key,
      documentId: outcome.documentId,
      version: outcome.version,
      ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
    });
    return undefined;
  }

  /** A file over `limits.maxFileBytes`: a failed version with the reason, nothing read or stored. */
  async function refuse(job: Job, size: number): Promise<string> {
    const key = keyOf(job);
    const filename = key.slice(key.lastIndexOf('/') + 1);
    const reason = `${filename}: the file is ${formatBytes(size)}, above the ${formatBytes(maxFileBytes)} limit (limits.maxFileBytes); it was not read or stored`;
    const collection = collectionOfKey(key, deps.config.collections);
    const { documentId, version } = await recordRefusedFile(deps.db, {
      key,
      filename,
      collection,
      size,
      reason,
    });
    emit({ action: 'failed', key, documentId, version, error: reason });
    return reason;
  }

  /** Moves the document of a file gone within the rename window whose latest bytes are these. */
  async function renamedFrom(key: string, bytes: Uint8Array): Promise<boolean> {
    if (removals.size === 0) return false;
    const hash = contentHash(bytes);
    const gone = new Set(removals.keys());
    for (const folder of folders) {
      if (![...gone].some((k) => k.startsWith(folder.prefix))) continue;
      const match = (await knownDocuments(deps.db, folder.prefix)).find(
        (doc) => gone.has(doc.key) && sameContent(doc, hash),
      );
      if (!match) continue;
      const taken = (await knownDocuments(deps.db, key)).some((doc) => doc.key === key);
      if (taken) return false;
      const removal = removals.get(match.key);
      if (removal) clearTimeout(removal.timer);
      removals.delete(match.key);
      await renameDocument(deps.db, deps.store, { fromKey: match.key, toKey: key, bytes });
      emit({ action: 'renamed', key, fromKey: match.key, documentId: match.id });
      return true;
    }
    return false;
  }

  async function remove(job: Job): Promise<undefined> {
    const key = keyOf(job);
    // The rename window has passed; a rename found meanwhile took the removal away.
    if (!removals.has(key)) return;
    removals.delete(key);
    const [doc] = (await knownDocuments(deps.db, key)).filter((d) => d.key === key);
    if (!doc) return;
    await deleteDocument(deps.db, deps.store, doc.id);
    emit({ action: 'deleted', key, documentId: doc.id });
  }

  function fileGone(job: Job): void {
    const key = keyOf(job);
    const previous = removals.get(key);
    if (previous) clearTimeout(previous.timer);
    // The file under its new name is read only after its quiet period: the window starts after it.
    const timer = setTimeout(
      () => schedule({ ...job, kind: 'remove' }),
      settings.debounceMs + settings.renameWindowMs,
    );
    removals.set(key, { job, timer });
  }

  function onFileEvent(kind: 'upsert' | 'remove', path: string): void {
    const found = locate(folders, path);
    if (!found || !rules.accepts(found.relativePath)) return;
    const job: Job = { kind, ...found };
    if (kind === 'remove') fileGone(job);
    else schedule(job);
  }

  /** Catches up with what changed while stopped: new and changed files, renames, deletions. */
  async function reconcile(scope: readonly WatchedFolder[]): Promise<void> {
    for (const folder of scope) {
      const files = await listFiles(folder.dir, rules);
      const known = new Map((await knownDocuments(deps.db, folder.prefix)).map((doc) => [doc.key, doc]));
      const changed: Job[] = [];
      const fresh: { job: Job; hash: string }[] = [];
      for (const relativePath of files) {
        const job: Job = { kind: 'upsert', folder, relativePath };
        const doc = known.get(keyOf(job));
        known.delete(keyOf(job));
        const info = await statOf(pathOf(job));
        // Too large to read: its turn in the queue refuses it (once: a refusal is recorded once).
        if (!info || info.size > maxFileBytes) {
          changed.push(job);
          continue;
        }
        const hash = await hashFile(pathOf(job));
        if (!doc) fresh.push({ job, hash });
        else if (!sameContent(doc, hash)) changed.push(job);
      }
      // What is left in `known` lost its file: renamed while stopped when the bytes reappear elsewhere.
      for (const { job, hash } of fresh) {
        const moved = [...known.values()].find((doc) => sameContent(doc, hash));
        if (!moved) {
          changed.push(job);
          continue;
        }
        known.delete(moved.key);
        const bytes = new Uint8Array(await readFile(pathOf(job)));
        await renameDocument(deps.db, deps.store, { fromKey: moved.key, toKey: keyOf(job), bytes });
        emit({ action: 'renamed', key: keyOf(job), fromKey: moved.key, documentId: moved.id });
      }
      for (const doc of known.values()) {
        await deleteDocument(deps.db, deps.store, doc.id);
        emit({ action: 'deleted', key: doc.key, documentId: doc.id });
      }
      for (const job of changed) schedule(job);
      lastSync.set(folder, new Date());
    }
  }

  /** Watches `scope` (starting chokidar on the first folders), then catches up with what it holds. */
  async function follow(scope: readonly WatchedFolder[]): Promise<void> {
    if (watcher) {
      watcher.add(scope.map((folder) => folder.dir));
    } else {
      const started = watch(
        scope.map((folder) => folder.dir),
        {
          ignoreInitial: true,
          // The rule of the start-up scan too (listFiles): a link is not followed, in or out of the folder.
          followSymlinks: false,
          ignored: (path) => {
            const found = locate(folders, path);
            return found !== undefined && rules.ignored(found.relativePath);
          },
          awaitWriteFinish:
            settings.debounceMs > 0
              ? { stabilityThreshold: settings.debounceMs, pollInterval: Math.min(100, settings.debounceMs) }
              : false,
        },
      );
      watcher = started;
      started.on('add', (path) => onFileEvent('upsert', path));
      started.on('change', (path) => onFileEvent('upsert', path));
      started.on('unlink', (path) => onFileEvent('remove', path));
      started.on('error', (error) => log.error('watch: folder watcher failed', errorFields(error)));
      await new Promise<void>((done) => started.once('ready', () => done()));
    }
    await reconcile(scope);
  }

  async function folderStatus(folder: WatchedFolder, waiting: string[]): Promise<WatchFolderStatus> {
    return {
      directory: folder.dir,
      prefix: folder.prefix,
      documents: (await knownDocuments(deps.db, folder.prefix)).length,
      pending: new Set(waiting.filter((key) => key.startsWith(folder.prefix))).size,
      lastSync: lastSync.get(folder)?.toISOString() ?? null,
      lastError: lastError.get(folder) ?? null,
    };
  }

  return {
    async start() {
      if (folders.length === 0) return;
      await follow(folders);
      ready = true;
    },
    async add(directory) {
      const [folder] = watchedFolders([...folders.map((f) => f.dir), directory]).filter(
        (f) => !folders.some((known) => known.dir === f.dir),
      );
      if (folder) {
        folders.push(folder);
        await follow([folder]);
        ready = true;
      }
      const added = folders.find((f) => f.dir === resolve(directory)) as WatchedFolder;
      return folderStatus(added, [...pending.keys(), ...running, ...removals.keys()]);
    },
    async status() {
      const waiting = [...pending.keys(), ...running, ...removals.keys()];
      return {
        running: watcher !== undefined && !closed,
        ready,
        rules: watchRulesStatus(settings, maxFileBytes),
        folders: await Promise.all(folders.map((folder) => folderStatus(folder, waiting))),
      };
    },
    async idle() {
      for (;;) {
        await queue.idle();
        if (removals.size === 0 && pending.size === 0 && running.size === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      closed = true;
      for (const { timer } of removals.values()) clearTimeout(timer);
      await watcher?.close();
      await queue.idle();
    },
  };
}

/**
 * Every accepted file under `dir`, as `/`-separated paths relative to it: regular files only, so a
 * symbolic link (to a file or a folder, inside or outside) is neither listed nor entered.
 */
async function listFiles(dir: string, rules: WatchRules): Promise<string[]> {
  const out: string[] = [];
  const visit = async (relative: string) => {
    const entries = await readdir(relative ? join(dir, relative) : dir, { withFileTypes: true });
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (rules.ignored(path)) continue;
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile() && rules.accepts(path)) out.push(path);
    }
  };
  await visit('');
  return out.sort();
}

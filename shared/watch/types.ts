/** What the watcher reports (its own module: the web client reads these types). */

export interface WatchFolderStatus {
  directory: string;
  prefix: string;
  /** Live documents from this folder. */
  documents: number;
  /** Files waiting to be ingested, renamed or deleted. */
  pending: number;
  /** When the last change from this folder was applied (or the start-up reconciliation ended). */
  lastSync: string | null;
  lastError: string | null;
}

/** The rules of every watched folder (docs/versions.md#watched-folders). */
export interface WatchRulesStatus {
  /** Symbolic links in a watched folder are never followed, whether they point inside it or out. */
  symlinks: 'not followed';
  /** `limits.maxFileBytes`: a larger file is refused before it is read (a failed version says so). */
  maxFileBytes: number;
  /** `watch.debounceMs`: a file is read once nothing has written to it for this long. */
  quietMs: number;
}

export interface WatchStatus {
  running: boolean;
  /** True once the start-up reconciliation is done. */
  ready: boolean;
  rules: WatchRulesStatus;
  folders: WatchFolderStatus[];
}

/** What happened to one watched file. */
export interface WatchEvent {
  action: 'ingested' | 'unchanged' | 'renamed' | 'deleted' | 'failed';
  key: string;
  /** The old key of a rename. */
  fromKey?: string;
  documentId?: string;
  version?: number;
  error?: string;
}

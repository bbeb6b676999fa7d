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

export interface WatchStatus {
  running: boolean;
  /** True once the start-up reconciliation is done. */
  ready: boolean;
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

export { locate, type WatchedFolder, type WatchRules, watchedFolders, watchRules } from './folders.ts';
export { stoppedWatchStatus } from './status.ts';
export type { WatchEvent, WatchFolderStatus, WatchRulesStatus, WatchStatus } from './types.ts';
export { createFolderWatcher, type FolderWatcher, type WatchDeps } from './watcher.ts';

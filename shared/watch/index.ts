export { locate, type WatchedFolder, type WatchRules, watchedFolders, watchRules } from './folders.ts';
export {
  createFolderWatcher,
  type FolderWatcher,
  stoppedWatchStatus,
  type WatchDeps,
  type WatchEvent,
  type WatchFolderStatus,
  type WatchStatus,
} from './watcher.ts';

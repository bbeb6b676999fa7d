import { resolve } from 'node:path';

/** The repository root: function entries, the lock file and web/dist are found from here. */
export const REPO_ROOT = resolve(import.meta.dirname, '..');

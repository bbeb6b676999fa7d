import { z } from 'zod';
import type { Config } from '../../config/index.ts';
import { readServerLock } from '../../runtime/lock.ts';
import { versionNumber } from '../../search/version-number.ts';
import { isLocalFile, treeFromDatabase, treeFromServer, treeOfFile } from './tree-source.ts';
import { renderOutline, type TreeView } from './tree-view.ts';

const options = z.object({ version: versionNumber.optional() });

/**
 * `dropqa tree <file | key | document id> [--json] [--version N]`: the tree a document gets. A file
 * on disk is parsed and normalized with the configured providers, nothing stored; a key or id shows
 * the stored tree (current version by default): from the running server when one holds the data
 * folder (sections with leaf counts), else from the database (every node).
 */
export async function treeCommand(
  config: Config,
  target: string | undefined,
  raw: { json: boolean; version?: string },
): Promise<number> {
  if (!target) throw new Error('usage: dropqa tree <file | key | document id> [--json] [--version N]');
  const { version } = options.parse({ version: raw.version });
  let view: TreeView;
  let note: string | undefined;
  if (isLocalFile(target)) {
    if (version) throw new Error('--version applies to stored documents, not to a file on disk');
    const parsed = await treeOfFile(config, target);
    view = parsed.view;
    for (const warning of parsed.warnings) process.stderr.write(`warning: ${warning}\n`);
    note = 'parsed from the file; nothing stored';
  } else {
    const lock = readServerLock(config.dataDir);
    if (lock) {
      view = await treeFromServer(lock.url, target, version);
      note = `from the server at ${lock.url}: sections only, with their leaf counts`;
    } else {
      view = await treeFromDatabase(config, target, version);
    }
  }
  if (raw.json) {
    process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(renderOutline(view));
  if (note) process.stderr.write(`(${note})\n`);
  return 0;
}

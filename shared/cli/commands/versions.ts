import type { Config } from '../../config/index.ts';
import { openReader } from '../backend.ts';
import { formatDate, formatSize, formatStats, formatStatus } from '../format.ts';

/** `dropqa versions <key or id> [--json]`: the document's versions, newest first, with their stats. */
export async function versionsCommand(
  config: Config,
  keyOrId: string,
  options: { json: boolean },
): Promise<number> {
  if (!keyOrId) throw new Error('usage: dropqa versions <key or id> [--json]');
  const backend = await openReader(config);
  try {
    const { document, versions } = await backend.versions(keyOrId);
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ document, versions })}\n`);
      return 0;
    }
    process.stdout.write(`${document.key} (${document.id}): ${formatStatus(document)}\n`);
    for (const v of versions) {
      const current = v.version === document.currentVersion ? '*' : ' ';
      process.stdout.write(
        `${current} v${v.version}  ${v.status.padEnd(10)} ${formatDate(v.createdAt)}  ${formatSize(v.fileSize).padStart(9)}  sha256 ${v.fileHash.slice(0, 12) || '-'}\n`,
      );
      const stats = formatStats(v.stats);
      if (stats) process.stdout.write(`      ${stats}\n`);
      if (v.changeSummary) process.stdout.write(`      changes: ${v.changeSummary}\n`);
      if (v.error) process.stdout.write(`      error: ${v.error}\n`);
    }
    return 0;
  } finally {
    await backend.close();
  }
}

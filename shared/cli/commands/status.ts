import type { Config } from '../../config/index.ts';
import type { DocumentStatus } from '../../db/schema.ts';
import type { DocumentSummary } from '../../documents/index.ts';
import { formatBytes } from '../../text/format-bytes.ts';
import { openReader } from '../backend.ts';
import { formatStatus } from '../format.ts';

const PAGE = 200;
const STATUSES: DocumentStatus[] = ['queued', 'processing', 'ready', 'failed', 'deleted'];

/**
 * `dropqa status [--status S] [--json]`: every document with its status (queued, processing with
 * the step, ready, failed with the reason; queued and processing say whether their pipeline is
 * running, waiting for a slot, or stopped with nothing working on it), then the count per status
 * (running / waiting / stopped in place of queued and processing), then the watched folders.
 */
export async function statusCommand(
  config: Config,
  options: { status?: string; collection?: string; json: boolean },
): Promise<number> {
  const status = options.status as DocumentStatus | undefined;
  if (status !== undefined && !STATUSES.includes(status)) {
    throw new Error(`--status must be one of ${STATUSES.join(', ')}`);
  }
  const backend = await openReader(config);
  try {
    const page = (offset: number) => backend.documents({ limit: PAGE, offset, status }, options.collection);
    // The first page gives the total; the other pages and the watched folders are asked for at once
    // (a server answers them while the others travel).
    const [first, watch] = await Promise.all([page(0), backend.watchStatus()]);
    const rest: Promise<{ items: DocumentSummary[] }>[] = [];
    for (let offset = PAGE; offset < first.total; offset += PAGE) rest.push(page(offset));
    const documents = [first, ...(await Promise.all(rest))].flatMap((p) => p.items);
    if (options.json) {
      for (const doc of documents) process.stdout.write(`${JSON.stringify(doc)}\n`);
      if (watch.folders.length > 0) process.stdout.write(`${JSON.stringify({ watch })}\n`);
      return 0;
    }
    const counts = new Map<string, number>();
    for (const doc of documents) {
      // Queued and processing documents are counted by what is happening to them (running, waiting, stopped).
      const name = doc.activity ?? doc.status;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      const version = doc.currentVersion === null ? '  -' : `v${doc.currentVersion}`.padStart(3);
      process.stdout.write(`${version}  ${doc.key}  ${formatStatus(doc)}\n`);
    }
    const summary = [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
    process.stdout.write(`${documents.length} document(s)${summary ? `: ${summary}` : ''}\n`);
    // Which folder was read: a count of 0 from the wrong folder must not pass for an empty one.
    process.stdout.write(`data: ${backend.description}\n`);
    for (const folder of watch.folders) {
      const state = watch.running
        ? `${folder.pending} pending, last sync ${folder.lastSync ?? 'not yet'}`
        : 'not running';
      process.stdout.write(
        `watching ${folder.directory} (${folder.prefix}): ${folder.documents} document(s), ${state}${folder.lastError ? `; last error: ${folder.lastError}` : ''}\n`,
      );
    }
    const rules = watch.rules;
    if (watch.folders.length > 0 && rules) {
      process.stdout.write(
        `watched folders: symbolic links ${rules.symlinks}; files over ${formatBytes(rules.maxFileBytes)} refused unread; a file is read once left alone for ${rules.quietMs} ms\n`,
      );
    }
    return 0;
  } finally {
    await backend.close();
  }
}

import type { Config } from '../../config/index.ts';
import type { DocumentStatus } from '../../db/schema.ts';
import type { DocumentSummary } from '../../documents/index.ts';
import { formatBytes } from '../../text/format-bytes.ts';
import { openReader, type Reader } from '../backend.ts';
import { formatStatus } from '../format.ts';

const PAGE = 200;
const STATUSES: DocumentStatus[] = ['queued', 'processing', 'ready', 'failed', 'deleted'];
/** Statuses every listing shows each document of: work in progress and failures. */
const UNSETTLED: DocumentStatus[] = ['queued', 'processing', 'failed'];
/**
 * With more live documents than this, `status` lists the ones changed last and every one not ready,
 * and counts the ready rest (`--all` lists every one): ten thousand lines are no status to read, and
 * reading them took 1.5 s of a 2.5 s `status` at 10,000 documents.
 */
const LISTED = 50;

/** Every document of `status` (every live one when undefined), newest change first. */
async function everyDocument(
  backend: Reader,
  status: DocumentStatus | undefined,
  collection: string | undefined,
): Promise<DocumentSummary[]> {
  const page = (offset: number) => backend.documents({ limit: PAGE, offset, status }, collection);
  // The first page gives the total; the other pages are asked for at once (a server answers them
  // while the others travel).
  const first = await page(0);
  const rest: Promise<{ items: DocumentSummary[] }>[] = [];
  for (let offset = PAGE; offset < first.total; offset += PAGE) rest.push(page(offset));
  return [first, ...(await Promise.all(rest))].flatMap((p) => p.items);
}

/**
 * `dropqa status [--status S] [--all] [--json]`: the documents with their status (queued, processing
 * with the step, ready, failed with the reason; queued and processing say whether their pipeline is
 * running, waiting for a slot, or stopped with nothing working on it), then the count per status
 * (running / waiting / stopped in place of queued and processing), then the watched folders. Up to
 * 50 live documents every one is listed; beyond, the 50 changed last and every one not ready, the
 * ready rest counted (`--all`, `--status` or `--json` list every document they select).
 */
export async function statusCommand(
  config: Config,
  options: { status?: string; collection?: string; json: boolean; all?: boolean },
): Promise<number> {
  const status = options.status as DocumentStatus | undefined;
  if (status !== undefined && !STATUSES.includes(status)) {
    throw new Error(`--status must be one of ${STATUSES.join(', ')}`);
  }
  const { collection } = options;
  const backend = await openReader(config);
  try {
    const [latest, watch] = await Promise.all([
      backend.documents({ limit: LISTED, offset: 0, status }, collection),
      backend.watchStatus(),
    ]);
    const whole = status !== undefined || options.json || options.all || latest.total <= LISTED;
    let documents: DocumentSummary[];
    let unlisted = 0;
    if (whole) {
      documents = latest.total <= LISTED ? latest.items : await everyDocument(backend, status, collection);
    } else {
      const [unsettled, ready] = await Promise.all([
        Promise.all(UNSETTLED.map((s) => everyDocument(backend, s, collection))),
        backend.documents({ limit: 1, offset: 0, status: 'ready' }, collection),
      ]);
      const listed = new Set(latest.items.map((doc) => doc.id));
      documents = [...latest.items, ...unsettled.flat().filter((doc) => !listed.has(doc.id))];
      unlisted = ready.total - documents.filter((doc) => doc.status === 'ready').length;
    }
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
    if (unlisted > 0) counts.set('ready', (counts.get('ready') ?? 0) + unlisted);
    const summary = [...counts].map(([name, n]) => `${n} ${name}`).join(', ');
    process.stdout.write(`${documents.length + unlisted} document(s)${summary ? `: ${summary}` : ''}\n`);
    if (unlisted > 0) {
      process.stdout.write(
        `listed: the ${LISTED} changed last and every one not ready; ${unlisted} other ready document(s) not listed (dropqa status --all)\n`,
      );
    }
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

import { assertCollectionName } from '../../access/collection-name.ts';
import type { Config } from '../../config/index.ts';
import { messageIdOfKey } from '../../documents/attachments.ts';
import { openBackend } from '../backend.ts';
import { collectInputs } from '../files.ts';
import { ProgressBar } from '../progress.ts';

/** One line of `--json` output: every file found gets one. */
function jsonLine(line: {
  key: string;
  status: string;
  documentId?: string;
  version?: number;
  error?: string;
}): void {
  const out = {
    key: line.key,
    status: line.status,
    document_id: line.documentId ?? null,
    version: line.version ?? null,
    error: line.error ?? null,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/**
 * `dropqa ingest <files or folders> [--collection name] [--json]`: every file found is reported (into
 * the collection when given: stored under `collections/<name>/`), documents as they
 * finish (ready / unchanged / failed), images kept for Markdown as `asset`, and every other file as
 * `unsupported` with its type and the types DropQA reads; an e-mail's attachments are reported as the
 * documents they become (the progress total grows by them). Ends with a scanned (+ attachments) /
 * indexed / unchanged / failed / not read summary; exit code 1 when any file failed.
 */
export async function ingestCommand(
  config: Config,
  paths: string[],
  options: { json: boolean; collection?: string },
): Promise<number> {
  if (paths.length === 0) throw new Error('usage: dropqa ingest <files or folders> [--json]');
  if (options.collection !== undefined) assertCollectionName(options.collection, '--collection');
  const inputs = collectInputs(paths);
  const backend = await openBackend(config, { recover: true, create: true });
  const progress = options.json ? undefined : new ProgressBar(inputs.documents.length);
  try {
    if (options.json) {
      for (const file of inputs.unsupported)
        jsonLine({ key: file.key, status: 'unsupported', error: file.reason });
      for (const file of inputs.assets) jsonLine({ key: file.key, status: 'asset' });
    }
    const outcomes = await backend.ingest(
      inputs.documents,
      inputs.assets,
      (o) => {
        if (options.json) {
          jsonLine(o);
        } else {
          // An e-mail's attachments become documents of their own: counted when they arrive.
          if (messageIdOfKey(o.key)) progress?.grow(1);
          progress?.tick(o.key, o.status);
        }
      },
      options.collection,
    );
    progress?.finish();
    const failed = outcomes.filter((o) => o.status === 'failed');
    if (!options.json) {
      const count = (status: string) => outcomes.filter((o) => o.status === status).length;
      const { unsupported, assets } = inputs;
      const attachments = outcomes.filter((o) => messageIdOfKey(o.key)).length;
      const scanned = outcomes.length - attachments + unsupported.length + assets.length;
      process.stdout.write(
        `${scanned} scanned${attachments ? ` (+${attachments} attachment(s))` : ''}: ${count('ready')} indexed, ${count('unchanged')} unchanged, ${failed.length} failed` +
          (unsupported.length ? `, ${unsupported.length} not read (unsupported type)` : '') +
          (assets.length ? `, ${assets.length} image(s) kept for Markdown` : '') +
          '\n',
      );
      for (const f of failed) process.stdout.write(`  failed  ${f.key}: ${f.error}\n`);
      for (const f of unsupported) process.stdout.write(`  not read  ${f.key}: ${f.reason}\n`);
    }
    return failed.length > 0 ? 1 : 0;
  } finally {
    await backend.close();
  }
}

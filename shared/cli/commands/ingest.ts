import type { Config } from '../../config/index.ts';
import { openBackend } from '../backend.ts';
import { collectInputs } from '../files.ts';
import { ProgressBar } from '../progress.ts';

/**
 * `dropqa ingest <files or folders> [--json]`: ends with a scanned / indexed / unchanged / failed
 * summary; exit code 1 when any file failed.
 */
export async function ingestCommand(
  config: Config,
  paths: string[],
  options: { json: boolean },
): Promise<number> {
  if (paths.length === 0) throw new Error('usage: dropqa ingest <files or folders> [--json]');
  const inputs = collectInputs(paths);
  const backend = await openBackend(config, { recover: true });
  const progress = options.json ? undefined : new ProgressBar(inputs.documents.length);
  try {
    const outcomes = await backend.ingest(inputs.documents, inputs.assets, (o) => {
      if (options.json) {
        const line = {
          key: o.key,
          status: o.status,
          document_id: o.documentId,
          version: o.version ?? null,
          error: o.error ?? null,
        };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      } else {
        progress?.tick(o.key, o.status);
      }
    });
    progress?.finish();
    const failed = outcomes.filter((o) => o.status === 'failed');
    if (!options.json) {
      const count = (status: string) => outcomes.filter((o) => o.status === status).length;
      const scanned = outcomes.length + inputs.skipped.length;
      process.stdout.write(
        `${scanned} scanned: ${count('ready')} indexed, ${count('unchanged')} unchanged, ${failed.length} failed` +
          (inputs.skipped.length ? `, ${inputs.skipped.length} skipped (not a document type)` : '') +
          '\n',
      );
      for (const f of failed) process.stdout.write(`  failed  ${f.key}: ${f.error}\n`);
    }
    return failed.length > 0 ? 1 : 0;
  } finally {
    await backend.close();
  }
}

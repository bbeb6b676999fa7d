import type { Config } from '../../config/index.ts';
import { openBackend } from '../backend.ts';

/**
 * `dropqa reindex <key or id>`: re-runs the pipeline on the stored object and waits; a new version
 * only when the result differs. Exit code 1 when it failed.
 */
export async function reindexCommand(
  config: Config,
  keyOrId: string,
  options: { json: boolean },
): Promise<number> {
  if (!keyOrId) throw new Error('usage: dropqa reindex <key or id>');
  const backend = await openBackend(config, { recover: true });
  try {
    const outcome = await backend.reindex(keyOrId);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(outcome)}\n`);
    } else if (outcome.status === 'ready') {
      process.stdout.write(`${outcome.key}: version ${outcome.version} is current (the result changed)\n`);
    } else if (outcome.status === 'unchanged') {
      process.stdout.write(`${outcome.key}: unchanged, version ${outcome.version} stays current\n`);
    } else {
      process.stdout.write(`${outcome.key}: failed: ${outcome.error}\n`);
    }
    return outcome.status === 'failed' ? 1 : 0;
  } finally {
    await backend.close();
  }
}

import type { Config } from '../../config/index.ts';
import { openBackend } from '../backend.ts';

/** `dropqa delete <key or id>`: removes the document from search and topics, and its blobs. */
export async function deleteCommand(
  config: Config,
  keyOrId: string,
  options: { json: boolean },
): Promise<number> {
  if (!keyOrId) throw new Error('usage: dropqa delete <key or id>');
  const backend = await openBackend(config);
  try {
    const document = await backend.remove(keyOrId);
    process.stdout.write(
      options.json
        ? `${JSON.stringify({ id: document.id, key: document.key, status: 'deleted' })}\n`
        : `deleted ${document.key} (${document.id})\n`,
    );
    return 0;
  } finally {
    await backend.close();
  }
}

import type { Config } from '../../config/index.ts';
import { ValidationError } from '../../errors.ts';
import { searchOptionsSchema } from '../../search/options.ts';
import { openReader } from '../backend.ts';

/** `dropqa search "<query>" [--kind] [--limit] [--mode] [--version] [--collection] [--json]`. */
export async function searchCommand(
  config: Config,
  query: string,
  raw: { kind?: string; limit?: string; mode?: string; version?: string; collection?: string; json: boolean },
): Promise<number> {
  const parsed = searchOptionsSchema.safeParse(raw);
  // Each bad flag by name (`--kind: ...`), not zod's list of issues as JSON.
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '),
    );
  }
  const o = parsed.data;
  const backend = await openReader(config);
  try {
    const hits = await backend.search(
      {
        query,
        kind: o.kind,
        limit: o.limit,
        keywordMode: o.mode,
        filters: { version: o.version },
      },
      raw.collection,
    );
    if (raw.json) {
      process.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
      return 0;
    }
    if (hits.length === 0) process.stdout.write('No results.\n');
    hits.forEach((hit, i) => {
      const snippet = hit.content.replace(/\s+/g, ' ').slice(0, 160);
      process.stdout.write(
        `${i + 1}. ${hit.path}  (score ${hit.score.toFixed(4)}, v${hit.version})\n   ${snippet}\n`,
      );
    });
    return 0;
  } finally {
    await backend.close();
  }
}

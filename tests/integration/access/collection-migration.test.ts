import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '#shared/db/client.ts';
import { createPglite } from '#shared/db/pglite-parsers.ts';

interface Journal {
  entries: { tag: string }[];
}

describe('migration 0013_collections', () => {
  it('puts every existing document in the default collection, nothing else touched', async () => {
    const pglite = await createPglite(undefined);
    try {
      const journal = JSON.parse(
        readFileSync(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
      ) as Journal;
      const run = async (tag: string) => {
        const text = readFileSync(join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8');
        for (const statement of text.split('--> statement-breakpoint')) {
          if (statement.trim()) await pglite.exec(statement);
        }
      };
      const tags = journal.entries.map((e) => e.tag);
      const at = tags.indexOf('0013_collections');
      expect(at).toBeGreaterThan(0);
      for (const tag of tags.slice(0, at)) await run(tag);
      await pglite.exec(`INSERT INTO documents (key, filename, status, current_version)
        VALUES ('hr/pay.md', 'pay.md', 'ready', 1), ('uploads/a.md', 'a.md', 'failed', NULL)`);
      await run('0013_collections');
      const { rows } = await pglite.query<{ key: string; collection: string; status: string }>(
        'SELECT key, collection, status FROM documents ORDER BY key',
      );
      expect(rows).toEqual([
        { key: 'hr/pay.md', collection: 'default', status: 'ready' },
        { key: 'uploads/a.md', collection: 'default', status: 'failed' },
      ]);
    } finally {
      await pglite.close();
    }
  });
});

import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPgliteWorker, queryRows } from '#shared/db/index.ts';
import { vectorLiteral } from '#shared/db/vector-literal.ts';

/** Deterministic doubles of every magnitude an embedder writes, as `vectorLiteral` writes them. */
function literals(count: number): string[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: count }, () =>
    vectorLiteral(Array.from({ length: 64 }, () => (next() - 0.5) * 10 ** -Math.floor(next() * 12))),
  );
}

// The embedded database gets vector parameters in pgvector's binary form (shared/db/vector-binary.ts):
// what it stores must be what the text form, parsed by pgvector itself, stores.
describe.each([
  ['in-process', () => openPglite()],
  ['worker thread', () => openPgliteWorker(undefined, 0)],
])('vector parameters of the embedded database (%s)', (_name, open) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database.close());

  it('store the same vectors as their text read by pgvector, ties and odd forms included', async () => {
    const odd = ['[1.0000000596046447753906251,-0,1e-45,1.4e-45,7.006492e-46]', '[3.4028235e+38]'];
    for (const literal of [...literals(40), ...odd]) {
      const [row] = await queryRows<{ binary: string; text: string }>(
        database.db,
        sql`SELECT ${literal}::vector::text AS binary, ${literal}::text::vector::text AS text`,
      );
      expect(row?.binary, literal).toBe(row?.text);
    }
  });

  it('still get the database error of a vector it cannot store', async () => {
    const failure = (query: ReturnType<typeof sql>) =>
      database.db.execute(query).then(
        () => '',
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
    expect(await failure(sql`SELECT ${'[1,NaN]'}::vector`)).toMatch(/NaN not allowed in vector/);
    expect(await failure(sql`SELECT ${'[1,2]'}::vector(3)`)).toMatch(/expected 3 dimensions, not 2/);
  });
});

describe('the in-process embedded database', () => {
  it('sends a vector parameter in binary format, its other parameters as text', async () => {
    const database = await openPglite();
    try {
      const binds: number[][] = [];
      const pglite = database.pglite as PGlite & { execProtocolStream: PGlite['execProtocolStream'] };
      const send = pglite.execProtocolStream.bind(pglite);
      pglite.execProtocolStream = (message, options) => {
        if (message[0] === 0x42) binds.push(bindFormats(message));
        return send(message, options);
      };
      await database.db.execute(sql`SELECT ${'[0.5,0.25]'}::vector AS v, ${'a'}::text AS t`);
      expect(binds).toEqual([[1, 0]]);
    } finally {
      await database.close();
    }
  });
});

/** The parameter format codes of a Bind message ('B', length, portal, statement, formats). */
function bindFormats(message: Uint8Array): number[] {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  let at = 5;
  for (let names = 0; names < 2; names++) at = message.indexOf(0, at) + 1;
  const count = view.getInt16(at);
  return Array.from({ length: count }, (_, i) => view.getInt16(at + 2 + 2 * i));
}

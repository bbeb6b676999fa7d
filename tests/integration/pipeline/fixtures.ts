import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { parseConfig } from '#shared/config/index.ts';
import type { ConfigInput } from '#shared/config/schema.ts';
import type { Db } from '#shared/db/index.ts';
import { HashingEmbedder } from '#shared/llm/offline/hashing-embedder.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { LocalBlobStore } from '#shared/storage/local.ts';

/** A real (tiny, grey) PNG of the given size, built from its chunks. */
export function pngBytes(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0; // filter byte of each row
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

export const utf8 = (text: string) => new TextEncoder().encode(text);

/** Pipeline dependencies over the given database, a temp-folder bucket and 64-dim hashing embeddings. */
export async function testDeps(
  db: Db,
  overrides: ConfigInput = {},
): Promise<PipelineDeps & { dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'dropqa-pipeline-'));
  const config = parseConfig({
    dataDir: dir,
    providers: { embedder: { dimensions: 64 } },
    ...overrides,
  });
  return {
    db,
    store: new LocalBlobStore(join(dir, 'bucket')),
    providers: { embedder: new HashingEmbedder({ dimensions: 64 }), label: 'offline (test)' },
    config,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

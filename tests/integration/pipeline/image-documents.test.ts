import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import { TesseractOcr } from '#shared/llm/ocr/tesseract.ts';
import { describeImages } from '#shared/pipeline/steps/describe-image.ts';
import { parse } from '#shared/pipeline/steps/parse.ts';
import { register } from '#shared/pipeline/steps/register.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { textPng } from '../../helpers/text-png.ts';
import { testDeps } from './fixtures.ts';

/** Random grey blocks: a picture tesseract reads as a few unsure symbols, if anything. */
function noisePng(): Promise<Buffer> {
  const pixels = Buffer.alloc(160 * 60);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = (seed >> 8) & 0xff;
  }
  return sharp(pixels, { raw: { width: 160, height: 60, channels: 1 } })
    .resize(480, 180, { kernel: 'nearest' })
    .png()
    .toBuffer();
}

describe('picture files as documents (offline OCR)', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let ocr: TesseractOcr;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
    ocr = new TesseractOcr({
      languages: 'chi_sim+eng',
      cacheDir: mkdtempSync(join(tmpdir(), 'dropqa-ocr-')),
    });
    deps = { ...deps, providers: { ...deps.providers, ocr } };
  });
  afterAll(async () => {
    await ocr?.close();
    await deps?.dispose();
    await database?.close();
  });

  /** Registers, parses and reads the images of one stored file; returns its nodes and its version's warnings. */
  async function ingest(key: string, bytes: Uint8Array) {
    await deps.store.put(key, bytes);
    const ref = await register({ key }, deps);
    const { images } = await parse({ documentId: ref.documentId, version: ref.version }, deps);
    await describeImages({ documentId: ref.documentId, version: ref.version, after: images.after }, deps);
    const nodes = await queryRows<{
      node_type: string;
      content: string | null;
      metadata: Record<string, unknown>;
    }>(
      database.db,
      sql`SELECT node_type, content, metadata FROM nodes WHERE document_id = ${ref.documentId}::uuid ORDER BY ordinal`,
    );
    const [version] = await queryRows<{ file_type: string; warnings: string[] }>(
      database.db,
      sql`SELECT file_type, warnings FROM document_versions WHERE document_id = ${ref.documentId}::uuid`,
    );
    return { nodes, version };
  }

  it('reads a letter scanned sideways to PNG: one cited image whose text is upright', async () => {
    const { nodes, version } = await ingest('scans/letter.png', textPng('DEAR ANNA THE PLAN IS DONE', 4, 90));
    expect(version).toEqual({ file_type: 'image', warnings: [] });
    const image = nodes.find((node) => node.node_type === 'image');
    expect(image?.content).toMatch(/DEAR A..A THE PLA. IS/);
    expect(image?.metadata).toMatchObject({ file: 'letter.png', ocrTurn: 270, name: 'img_001.png' });
  });

  it('reads a TIFF scan', async () => {
    const tiff = await sharp(textPng('HELLO CLOUD DROP')).tiff().toBuffer();
    const { nodes, version } = await ingest('scans/hello.tiff', new Uint8Array(tiff));
    expect(version?.file_type).toBe('image');
    expect(nodes.find((node) => node.node_type === 'image')?.content).toContain('CLOUD');
  });

  it('leaves out a picture whose text is unreadable and says so on the version', async () => {
    const { nodes, version } = await ingest('scans/smudge.png', new Uint8Array(await noisePng()));
    expect(nodes.find((node) => node.node_type === 'image')?.content ?? '').toBe('');
    expect(version?.warnings).toEqual([
      expect.stringMatching(
        /^smudge\.png: (text unreadable \(OCR confidence \d+%\), left out|no text found in the picture \(OCR\))$/,
      ),
    ]);
  });
});

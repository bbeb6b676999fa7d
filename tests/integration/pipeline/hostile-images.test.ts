import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { type Database, queryRows } from '#shared/db/index.ts';
import { TesseractOcr } from '#shared/llm/ocr/tesseract.ts';
import { createIngestService, type IngestService } from '#shared/pipeline/ingest.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { keywordSearch } from '#shared/search/keyword.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { docxWithPicture, garbagePng, SVG_PICTURE } from '../../helpers/hostile-docx.ts';
import { textPng } from '../../helpers/text-png.ts';
import { testDeps } from './fixtures.ts';

/**
 * Pictures that made the real OCR worker (tesseract.js) throw outside any handler and end the
 * process: the document is indexed, the picture kept with a warning, and the process still reads
 * the next image.
 */
describe('hostile pictures with the offline OCR engine', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let service: IngestService;
  let ocr: TesseractOcr;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
    ocr = new TesseractOcr({ languages: 'eng', cacheDir: mkdtempSync(join(tmpdir(), 'dropqa-ocr-')) });
    deps.providers = { ...deps.providers, ocr };
    service = createIngestService(deps, { retryDelayMs: 1 });
  }, 60_000);
  afterAll(async () => {
    await service?.idle();
    await ocr?.close();
    await deps?.dispose();
    await database?.close();
  });

  async function imageErrors(documentId: string): Promise<(string | null)[]> {
    const rows = await queryRows<{ error: string | null }>(
      deps.db,
      sql`SELECT i.error FROM images i JOIN nodes n ON n.id = i.node_id WHERE n.document_id = ${documentId}::uuid`,
    );
    return rows.map((r) => r.error);
  }

  it('indexes a .docx whose picture is an SVG, keeping it as an image with a warning', async () => {
    const bytes = await docxWithPicture(SVG_PICTURE, 'svg');
    const [outcome] = await service.ingest([{ key: 'hostile/svg-picture.docx', bytes }]);
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    const errors = await imageErrors(outcome?.documentId ?? '');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/image1\.svg|img_001\.svg/);
    expect(errors[0]).toMatch(/vector images \(EMF, WMF, SVG\) are kept without reading their text/);
    const hits = await keywordSearch(
      { db: deps.db, access: ALL_COLLECTIONS, embedder: deps.providers.embedder, search: deps.config.search },
      { keywords: ['Egret wintering'], mode: 'exact' },
    );
    expect(hits.map((h) => h.documentId)).toContain(outcome?.documentId);
  }, 60_000);

  it('indexes a .docx whose PNG picture is garbage, with the OCR failure as the warning', async () => {
    const bytes = await docxWithPicture(garbagePng(), 'png');
    const [outcome] = await service.ingest([{ key: 'hostile/garbage-png.docx', bytes }]);
    expect(outcome).toMatchObject({ status: 'ready', version: 1 });
    const errors = await imageErrors(outcome?.documentId ?? '');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/OCR \(tesseract\): .*could not read/);
    // The same engine (a new worker if the old one died) still reads the next picture.
    const { text } = await ocr.recognize(textPng('HELLO CLOUD'), 'image/png');
    expect(text).toContain('CLOUD');
  }, 60_000);
});

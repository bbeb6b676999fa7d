import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import type { OcrEngine, OcrReading } from '#shared/llm/types.ts';
import { describeImages } from '#shared/pipeline/steps/describe-image.ts';
import { parse } from '#shared/pipeline/steps/parse.ts';
import { register } from '#shared/pipeline/steps/register.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { textPng } from '../../helpers/text-png.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const DOC = `# Quarterly review

## Revenue

The chart below shows revenue by region.

![Revenue by region](chart.png)
`;

interface ImageState {
  ocr_text: string | null;
  description: string | null;
  error: string | null;
  content: string;
  index_text: string;
  metadata: Record<string, unknown>;
  found: boolean;
}

/** An OCR engine that reads a fixed text (or reading), or fails. */
function fakeOcr(text: string | OcrReading | Error): OcrEngine & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'fake-ocr',
    calls,
    async recognize(_image, mime) {
      calls.push(mime);
      if (text instanceof Error) throw text;
      return typeof text === 'string' ? { text } : text;
    },
  };
}

describe.each(DRIVERS)('DescribeImage step (%s)', (driver) => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  beforeAll(async () => {
    database = await openTestDatabase(driver);
    deps = await testDeps(database.db);
  });
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  /** Registers and parses a fresh copy of DOC; returns the images step's input and the image's node. */
  async function parsedImage(): Promise<{
    documentId: string;
    version: number;
    after: number;
    nodeId: string;
  }> {
    const dir = `docs-${Math.random().toString(36).slice(2)}`;
    await deps.store.put(`${dir}/chart.png`, textPng('HELLO CLOUD'));
    await deps.store.put(`${dir}/review.md`, utf8(DOC));
    const ref = await register({ key: `${dir}/review.md` }, deps);
    const { images } = await parse({ documentId: ref.documentId, version: ref.version }, deps);
    expect(images).toEqual({ left: 1, after: -1 });
    const [node] = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM nodes WHERE document_id = ${ref.documentId}::uuid AND node_type = 'image'`,
    );
    if (!node) throw new Error('no image node');
    return { documentId: ref.documentId, version: ref.version, after: images.after, nodeId: node.id };
  }

  async function state(nodeId: string, word = 'hello'): Promise<ImageState> {
    const [row] = await queryRows<ImageState>(
      database.db,
      sql`SELECT i.ocr_text, i.description, i.error, n.content, n.index_text, n.metadata,
            n.search_vector @@ ${word}::tsquery AS found
          FROM images i JOIN nodes n ON n.id = i.node_id WHERE n.id = ${nodeId}::uuid`,
    );
    if (!row) throw new Error('no image row');
    return row;
  }

  it('stores the OCR text on the images row and makes it searchable on the node', async () => {
    const image = await parsedImage();
    const ocr = fakeOcr('HELLO CLOUD');
    await describeImages(image, { ...deps, providers: { ...deps.providers, ocr } });
    const row = await state(image.nodeId);
    expect(ocr.calls).toEqual(['image/png']);
    expect(row).toMatchObject({ ocr_text: 'HELLO CLOUD', description: null, error: null, found: true });
    expect(row.content).toBe('Revenue by region\nHELLO CLOUD');
    expect(row.index_text).toContain('Revenue by region\nHELLO CLOUD');
  });

  it('leaves out OCR blocks below the confidence floor and says so on the version', async () => {
    const image = await parsedImage();
    const ocr = fakeOcr({
      text: 'HELLO CLOUD\n\nFERRED SORRAENNRE SEX',
      confidence: 0.6,
      blocks: [
        { text: 'HELLO CLOUD', confidence: 0.91 },
        { text: 'FERRED SORRAENNRE SEX', confidence: 0.31 },
      ],
    });
    await describeImages(image, { ...deps, providers: { ...deps.providers, ocr } });
    const row = await state(image.nodeId, 'sorraennre');
    expect(row).toMatchObject({ ocr_text: 'HELLO CLOUD', found: false });
    expect(row.content).not.toContain('FERRED');
    expect(row.metadata).toMatchObject({ ocrBlocks: [0.91, 0.31], ocrConfidence: 0.6 });
    const [version] = await queryRows<{ warnings: string[] }>(
      database.db,
      sql`SELECT warnings FROM document_versions WHERE document_id = ${image.documentId}::uuid`,
    );
    expect(version?.warnings).toEqual([
      expect.stringMatching(/: 1 block of text unreadable \(OCR confidence 31%\), left out$/),
    ]);
  });

  it('asks the chat model for a description with the image attached', async () => {
    const image = await parsedImage();
    const chat = scriptedChat(() => 'A bar chart of revenue per region; north leads.');
    await describeImages(image, { ...deps, providers: { ...deps.providers, ocr: fakeOcr('HELLO'), chat } });
    const [call] = chat.calls;
    expect(call?.request.role).toBe('describeImage');
    const parts = call?.request.messages[0]?.content;
    expect(Array.isArray(parts) && parts.some((p) => p.type === 'image' && p.mime === 'image/png')).toBe(
      true,
    );
    expect(promptText(call?.request ?? { role: 'describeImage', messages: [] })).toContain(
      'Revenue by region',
    );
    const row = await state(image.nodeId, 'north');
    expect(row).toMatchObject({
      description: 'A bar chart of revenue per region; north leads.',
      found: true,
    });
    expect(row.metadata).toMatchObject({ imageRead: true, ocrText: 'HELLO' });
  });

  it('records a failed OCR on the image and still succeeds', async () => {
    const image = await parsedImage();
    const ocr = fakeOcr(new Error('engine crashed'));
    await expect(describeImages(image, { ...deps, providers: { ...deps.providers, ocr } })).resolves.toEqual({
      left: 0,
      after: expect.any(Number),
    });
    const row = await state(image.nodeId);
    expect(row.error).toMatch(/OCR \(fake-ocr\): engine crashed/);
    expect(row.metadata.imageError).toBe(row.error);
    expect(row.content).toBe('Revenue by region');
  });

  it('skips an EMF image with its reason, without reading it', async () => {
    const image = await parsedImage();
    await database.db.execute(
      sql`UPDATE images SET mime = 'image/x-emf', filename = 'img_001.emf' WHERE node_id = ${image.nodeId}::uuid`,
    );
    const ocr = fakeOcr('never');
    await describeImages(image, { ...deps, providers: { ...deps.providers, ocr } });
    expect(ocr.calls).toEqual([]);
    expect((await state(image.nodeId)).error).toMatch(/vector images \(EMF, WMF, SVG\)/);
  });

  it('does not add the text twice when the step is retried', async () => {
    const image = await parsedImage();
    const ocr = fakeOcr('HELLO CLOUD');
    const withOcr = { ...deps, providers: { ...deps.providers, ocr } };
    await describeImages(image, withOcr);
    await describeImages(image, withOcr);
    expect(ocr.calls).toHaveLength(1);
    expect((await state(image.nodeId)).content).toBe('Revenue by region\nHELLO CLOUD');
  });
});

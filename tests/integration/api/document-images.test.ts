import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '#shared/api/errors.ts';
import { openApiDocument } from '#shared/api/openapi.ts';
import { type DocumentImages, documentImageRoutes } from '#shared/api/routes/document-images.ts';
import { type Database, schema } from '#shared/db/index.ts';
import { DRIVERS, openTestDatabase } from '../../helpers/db.ts';

type NodeRow = typeof schema.nodes.$inferInsert;

/** Version `version` of a document: Intro > Diagrams holding one image, and one image before any heading. */
function versionNodes(documentId: string, version: number): { nodes: NodeRow[]; imageNodes: string[] } {
  const root = randomUUID();
  const intro = randomUUID();
  const diagrams = randomUUID();
  const top = randomUUID();
  const deep = randomUUID();
  const node = (row: Partial<NodeRow> & Pick<NodeRow, 'id' | 'nodeType' | 'ordinal'>): NodeRow => ({
    documentId,
    version,
    depth: 0,
    position: 0,
    parentId: null,
    ...row,
  });
  return {
    nodes: [
      node({ id: root, nodeType: 'document', ordinal: 0, title: 'Plan' }),
      node({ id: top, nodeType: 'image', ordinal: 1, parentId: root, depth: 1, metadata: { page: 1 } }),
      node({ id: intro, nodeType: 'section', ordinal: 2, parentId: root, depth: 1, title: 'Intro' }),
      node({ id: diagrams, nodeType: 'section', ordinal: 3, parentId: intro, depth: 2, title: '架构图' }),
      node({ id: deep, nodeType: 'image', ordinal: 4, parentId: diagrams, depth: 3, metadata: { page: 2 } }),
    ],
    imageNodes: [top, deep],
  };
}

describe.each(DRIVERS)('GET /api/v1/documents/{id}/images (%s)', (driver) => {
  let database: Database;
  let app: Hono;
  let documentId: string;
  let sections: { intro: string; diagrams: string };

  const get = async (path: string) => {
    const res = await app.request(path);
    return { status: res.status, body: (await res.json()) as DocumentImages & { error?: { code: string } } };
  };

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    app = new Hono();
    app.onError(handleError);
    app.route('/api/v1/documents', documentImageRoutes({ db: database.db }));
    const { db } = database;
    const [doc] = await db
      .insert(schema.documents)
      .values({
        key: 'uploads/plan.pdf',
        filename: 'plan.pdf',
        fileType: 'pdf',
        currentVersion: 2,
        status: 'ready',
      })
      .returning();
    documentId = doc?.id ?? '';
    for (const version of [1, 2]) {
      const { nodes, imageNodes } = versionNodes(documentId, version);
      await db.insert(schema.nodes).values(nodes);
      await db.insert(schema.images).values(
        imageNodes.map((nodeId, i) => ({
          nodeId,
          objectKey: `documents/${documentId}/v${version}/img_00${i + 1}.png`,
          filename: `img_00${i + 1}.png`,
          mime: 'image/png',
          size: 1000 * (i + 1),
          width: 160,
          height: 40,
          ocrText: i === 1 ? `PIPELINE v${version}` : null,
          description: i === 1 ? 'A diagram of the ingestion pipeline' : null,
        })),
      );
      if (version === 2) sections = { intro: nodes[2]?.id ?? '', diagrams: nodes[3]?.id ?? '' };
    }
  });

  afterAll(async () => {
    await database?.close();
  });

  it('lists the current version’s images in reading order with OCR text, section path and URL', async () => {
    const { status, body } = await get(`/api/v1/documents/${documentId}/images`);
    expect(status).toBe(200);
    expect(body.version).toBe(2);
    expect(body.items.map((image) => image.filename)).toEqual(['img_001.png', 'img_002.png']);
    expect(body.items[0]).toMatchObject({ section: null, page: 1, ocrText: null, size: 1000 });
    expect(body.items[1]).toMatchObject({
      mime: 'image/png',
      width: 160,
      height: 40,
      size: 2000,
      page: 2,
      slide: null,
      ocrText: 'PIPELINE v2',
      description: 'A diagram of the ingestion pipeline',
      section: { id: sections.diagrams, title: '架构图', path: ['Intro', '架构图'] },
      url: `/api/v1/documents/${documentId}/images/img_002.png`,
    });
  });

  it('lists an older version’s images with URLs pinned to it when asked for one', async () => {
    const { body } = await get(`/api/v1/documents/${documentId}/images?version=1`);
    expect(body.version).toBe(1);
    expect(body.items[1]?.ocrText).toBe('PIPELINE v1');
    expect(body.items[1]?.url).toBe(`/api/v1/documents/${documentId}/images/img_002.png?version=1`);
    expect(body.items[1]?.section?.id).not.toBe(sections.diagrams);
  });

  it('answers 404 for an unknown document or version and 400 for a bad id', async () => {
    expect((await get(`/api/v1/documents/${randomUUID()}/images`)).status).toBe(404);
    expect((await get(`/api/v1/documents/${documentId}/images?version=9`)).status).toBe(404);
    const bad = await get('/api/v1/documents/not-a-uuid/images');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('validation_failed');
  });

  it('appears in the OpenAPI description', () => {
    const paths = openApiDocument().paths as Record<string, { get?: { parameters?: { name: string }[] } }>;
    expect(paths['/api/v1/documents/{id}/images']?.get?.parameters?.map((p) => p.name)).toEqual([
      'id',
      'version',
    ]);
  });
});

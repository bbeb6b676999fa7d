import { Hono } from 'hono';
import { z } from 'zod';
import { readDocumentImage } from '../../qa/documents/images.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import { versionNumber } from '../../search/version-number.ts';
import { accessOf } from '../access.ts';
import { parseInput } from '../validate.ts';

/** Names the parsers give extracted images (`img_001.png`); nothing else is ever looked up. */
const IMAGE_FILENAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.(?:png|jpe?g|gif|webp|bmp|tiff?|svg|emf|wmf)$/;

const params = z.object({
  id: z.uuid('must be a document UUID'),
  filename: z.string().regex(IMAGE_FILENAME, 'must be an image file name such as img_001.png'),
});
export const imageQuery = z.object({ version: versionNumber.optional() });

/**
 * `GET /api/v1/documents/{id}/images/{filename}[?version=n]` (docs/spec.md#image-endpoint): an
 * image of a document's current (or given) version, from the cache or the bucket, with its media
 * type. Bad ids and names are 400s, unknown images 404s.
 */
export function imageRoutes(rt: Runtime): Hono {
  const app = new Hono();
  app.get('/:id/images/:filename', async (c) => {
    const { id, filename } = parseInput(params, c.req.param(), 'path');
    const { version } = parseInput(imageQuery, c.req.query(), 'query');
    const image = await readDocumentImage({ db: rt.db, store: rt.store }, accessOf(c), id, filename, version);
    const etag = `"${image.etag}"`;
    const headers: Record<string, string> = {
      'Content-Type': image.mime,
      ETag: etag,
      // A pinned version's image never changes; the current version's can, after a re-upload.
      'Cache-Control': version ? 'private, max-age=31536000, immutable' : 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      // SVG can carry script: never let an image response run anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(image.bytes as Uint8Array<ArrayBuffer>, 200, headers);
  });
  return app;
}

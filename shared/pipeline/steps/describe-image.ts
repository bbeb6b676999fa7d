import { sql } from 'drizzle-orm';
import { createLimiter } from '../../async/limiter.ts';
import { queryRows } from '../../db/client.ts';
import { withWrites } from '../../db/with-writes.ts';
import { startStepWrites } from '../../documents/versions.ts';
import { describeImageNode } from '../../enrich/images/describe-image.ts';
import { type ImagesCursor, imagesInputSchema, parseStepInput } from '../contract.ts';
import { STEP_BUDGET_MS } from '../definition.ts';
import type { PipelineDeps } from '../types.ts';

/** Images read per invocation at most; the state machine loops for the rest (one history event set each). */
export const IMAGES_PER_INVOCATION = 100;
/** Images read at once (OCR and the vision model): what the Map's MaxConcurrency was. */
const IMAGE_CONCURRENCY = 4;

/**
 * DescribeImage (looped by the Images choice): OCR and a multimodal description (`providers.ocr`,
 * `providers.chat`) of the version's next images after the ordinal `after`, in reading order, four
 * at a time, until `IMAGES_PER_INVOCATION` are done or the step's budget (`STEP_BUDGET_MS`) is
 * spent; stored on each node and its `images` row. Returns the new cursor and how many are left, so
 * the state holds two numbers whatever the document. An unreadable image is recorded there and the
 * step still succeeds, so it never fails its document; a retried invocation redoes nothing that was
 * stored.
 *
 * @example await describeImages({ documentId, version: 1, after: -1 }, deps) // { left: 0, after: 57 }
 */
export async function describeImages(raw: unknown, deps: PipelineDeps): Promise<ImagesCursor> {
  const input = parseStepInput(imagesInputSchema, raw, 'DescribeImage');
  const started = Date.now();
  const budget = deps.stepBudgetMs ?? STEP_BUDGET_MS.DescribeImage;
  const { db, store, providers } = deps;
  // The step starts (`startStep`) with its read of the next images.
  const next = await queryRows<{ id: string; ordinal: number; total: number }>(
    db,
    withWrites(
      startStepWrites(input, 'images'),
      sql`SELECT n.id, n.ordinal, count(*) OVER ()::int AS total FROM nodes n JOIN images i ON i.node_id = n.id
          WHERE n.document_id = ${input.documentId}::uuid AND n.version = ${input.version}::int
            AND n.ordinal > ${input.after}::int
          ORDER BY n.ordinal LIMIT ${IMAGES_PER_INVOCATION}::int`,
    ),
  );
  const total = Number(next[0]?.total ?? 0);
  const limit = createLimiter(IMAGE_CONCURRENCY);
  let after = input.after;
  let done = 0;
  // Waves of IMAGE_CONCURRENCY, so the cursor always ends after a run of images all stored.
  for (let start = 0; start < next.length; start += IMAGE_CONCURRENCY) {
    if (start > 0 && Date.now() - started > budget) break;
    const wave = next.slice(start, start + IMAGE_CONCURRENCY);
    await Promise.all(
      wave.map((image) =>
        limit.run(() =>
          describeImageNode(
            {
              db,
              store,
              chat: providers.chat,
              ocr: providers.ocr,
              ocrFloor: deps.config.providers.ocr.minConfidence,
            },
            { ...input, nodeId: image.id },
          ),
        ),
      ),
    );
    after = Number(wave.at(-1)?.ordinal ?? after);
    done += wave.length;
  }
  return { left: total - done, after };
}

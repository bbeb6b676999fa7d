import { startStep } from '../../documents/versions.ts';
import { describeImageNode } from '../../enrich/images/describe-image.ts';
import { type ImageRef, imageRefSchema, parseStepInput } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';

/**
 * DescribeImage (one iteration of the Images map): OCR and a multimodal description of one image
 * node (`providers.ocr`, `providers.chat`), stored on the node and its `images` row. An unreadable image is recorded there and the step
 * still succeeds, so it never fails its document.
 *
 * @example await describeImage({ documentId, version: 1, nodeId }, deps) // returns its input
 */
export async function describeImage(raw: unknown, deps: PipelineDeps): Promise<ImageRef> {
  const input = parseStepInput(imageRefSchema, raw, 'DescribeImage');
  await startStep(deps.db, input, 'images');
  const { db, store, providers } = deps;
  await describeImageNode({ db, store, chat: providers.chat, ocr: providers.ocr }, input);
  return input;
}

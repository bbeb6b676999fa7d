import { type ImageRef, imageRefSchema, parseStepInput } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { startStep } from '../versions.ts';

/**
 * DescribeImage (one iteration of the Images map): OCR and a multimodal description of one image
 * node. A pass-through until the providers issue: it records the step and returns its input.
 */
export async function describeImage(raw: unknown, deps: PipelineDeps): Promise<ImageRef> {
  const input = parseStepInput(imageRefSchema, raw, 'DescribeImage');
  await startStep(deps.db, input, 'images');
  return input;
}

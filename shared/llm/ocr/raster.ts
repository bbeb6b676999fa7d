import { ProviderError, reasonOf } from '#shared/errors.ts';
import type { QuarterTurn } from '#shared/llm/types.ts';

/**
 * The picture turned clockwise by `turn` (0: as it is), as PNG, for a second OCR pass over a page
 * scanned sideways or upside down; also makes PNG of the formats an engine does not take (TIFF,
 * WebP, GIF for Textract).
 *
 * @example const upright = await turnedPng(scan, 90);
 */
export async function turnedPng(image: Uint8Array, turn: QuarterTurn): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  try {
    return new Uint8Array(await sharp(image).rotate(turn).png().toBuffer());
  } catch (error) {
    throw new ProviderError(`the image could not be decoded for OCR: ${reasonOf(error)}`, { cause: error });
  }
}

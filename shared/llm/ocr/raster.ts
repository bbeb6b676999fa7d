import { ProviderError, reasonOf } from '#shared/errors.ts';
import type { QuarterTurn } from '#shared/llm/types.ts';
import { readImageInfo } from '#shared/parse/image-info.ts';

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

/** Scan formats the OCR engines do not read reliably themselves (tesseract's TIFF reader, Textract): sent as PNG. */
const AS_PNG = new Set(['image/tiff', 'image/webp', 'image/gif']);

/**
 * The picture as an OCR engine reads it: PNG for TIFF, WebP and GIF (decoded by sharp), else as it is.
 *
 * @example const { bytes, mime } = await ocrInput(tiffScan, 'image/tiff'); // mime 'image/png'
 */
export async function ocrInput(
  image: Uint8Array,
  mime: string,
): Promise<{ bytes: Uint8Array; mime: string }> {
  const type = readImageInfo(image)?.mime ?? mime;
  return AS_PNG.has(type)
    ? { bytes: await turnedPng(image, 0), mime: 'image/png' }
    : { bytes: image, mime: type };
}

import { ValidationError } from '#shared/errors.ts';
import type { ChatMessage, ContentPart } from '../types.ts';

export interface ImageLimits {
  /** Largest encoded size accepted. */
  maxBytes: number;
  /** Largest width or height, in pixels. */
  maxDimension: number;
  /** Mime types the provider accepts as they are; others are converted. */
  mimes: readonly string[];
}

/** Bedrock Converse: at most 3.75 MB and 8000 x 8000 px per image; png, jpeg, gif, webp. */
export const BEDROCK_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 3.75 * 1024 * 1024,
  maxDimension: 8000,
  mimes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
};

/** Bedrock Converse accepts at most 20 images in one request. */
export const BEDROCK_MAX_IMAGES = 20;

/**
 * The image itself when it is within the limits, else a downscaled (and if need be re-encoded)
 * copy made with sharp: inside `maxDimension`, then JPEG at falling quality and size until it fits.
 */
export async function fitImage(
  bytes: Uint8Array,
  mime: string,
  limits: ImageLimits,
): Promise<{ bytes: Uint8Array; mime: string }> {
  const { default: sharp } = await import('sharp');
  let meta: { width?: number; height?: number; hasAlpha?: boolean };
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    throw new ValidationError(`image (${mime}, ${bytes.length} bytes) cannot be read`, { cause: error });
  }
  const largest = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (limits.mimes.includes(mime) && bytes.length <= limits.maxBytes && largest <= limits.maxDimension) {
    return { bytes, mime };
  }
  let dimension = Math.min(largest || limits.maxDimension, limits.maxDimension);
  if (meta.hasAlpha && bytes.length <= limits.maxBytes) {
    const png = await sharp(bytes).resize(resize(dimension)).png().toBuffer();
    if (png.length <= limits.maxBytes) return { bytes: new Uint8Array(png), mime: 'image/png' };
  }
  for (let quality = 85; ; ) {
    const jpeg = await sharp(bytes)
      .resize(resize(dimension))
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer();
    if (jpeg.length <= limits.maxBytes) return { bytes: new Uint8Array(jpeg), mime: 'image/jpeg' };
    if (quality > 60) quality -= 15;
    else dimension = Math.floor(dimension * 0.7);
    if (dimension < 16)
      throw new ValidationError(`image (${mime}) cannot be made smaller than ${limits.maxBytes} bytes`);
  }
}

function resize(dimension: number) {
  return { width: dimension, height: dimension, fit: 'inside' as const, withoutEnlargement: true };
}

/** The number of image parts in the messages. */
export function countImages(messages: ChatMessage[]): number {
  let n = 0;
  for (const message of messages) {
    if (typeof message.content !== 'string') n += message.content.filter((p) => p.type === 'image').length;
  }
  return n;
}

/**
 * The conversation split into requests of at most `max` images each: every request keeps all the
 * text, and carries its own share of the images in their original places.
 */
export function splitByImages(messages: ChatMessage[], max: number): ChatMessage[][] {
  const total = countImages(messages);
  if (total <= max) return [messages];
  const groups: ChatMessage[][] = [];
  for (let first = 0; first < total; first += max) {
    let index = 0;
    const keep = (part: ContentPart) => {
      if (part.type !== 'image') return true;
      const i = index++;
      return i >= first && i < first + max;
    };
    groups.push(
      messages.map((m) => (typeof m.content === 'string' ? m : { ...m, content: m.content.filter(keep) })),
    );
  }
  return groups;
}

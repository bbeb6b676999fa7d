import { reasonOf } from '#shared/errors.ts';
import { extractedImageName, readImageInfo } from './image-info.ts';
import { resolveImagePath } from './image-path.ts';
import type { ExtractedImage, ImageNode, ParseInput } from './types.ts';

const DATA_URI = /^data:([^;,]*)(;base64)?,(.*)$/is;

/** Collects the images a document references, in reading order, with warnings for the ones it skips. */
export interface ImageCollector {
  /** An image node for the reference, or undefined (with a warning) when it cannot be used. */
  collect(reference: string, alt: string): Promise<ImageNode | undefined>;
  readonly images: ExtractedImage[];
  readonly warnings: string[];
}

function shorten(reference: string): string {
  return reference.length > 80 ? `${reference.slice(0, 77)}...` : reference;
}

function decodeDataUri(reference: string): Uint8Array | undefined {
  const match = DATA_URI.exec(reference.trim());
  if (!match?.[2]) return undefined;
  return new Uint8Array(Buffer.from(match[3] ?? '', 'base64'));
}

/**
 * Creates a collector that reads referenced images through `input.readRelative` (never outside the
 * document's folder, never over the network) and names them `img_001.png`, `img_002.jpg`, ... Each
 * image node gets its own image, so every image row has exactly one node.
 */
export function createImageCollector(input: ParseInput): ImageCollector {
  const images: ExtractedImage[] = [];
  const warnings: string[] = [];

  async function read(reference: string): Promise<Uint8Array | string> {
    if (/^data:/i.test(reference.trim())) {
      return decodeDataUri(reference) ?? 'the data URI is not base64';
    }
    const resolved = resolveImagePath(reference);
    if (!resolved.ok) return resolved.reason;
    if (!input.readRelative) return 'there is no folder to read it from';
    try {
      return (await input.readRelative(resolved.path)) ?? 'it was not found beside the document';
    } catch (error) {
      return `it could not be read (${reasonOf(error)})`;
    }
  }

  async function collect(reference: string, alt: string): Promise<ImageNode | undefined> {
    const bytes = await read(reference);
    if (typeof bytes === 'string') {
      warnings.push(`image "${shorten(reference)}" skipped: ${bytes}`);
      return undefined;
    }
    const info = readImageInfo(bytes);
    if (!info) {
      warnings.push(`image "${shorten(reference)}" skipped: not a PNG, JPEG, GIF, WebP or BMP image`);
      return undefined;
    }
    const name = extractedImageName(images.length + 1, info.extension);
    const source = /^data:/i.test(reference.trim()) ? 'data URI' : reference;
    const image: ExtractedImage = { name, bytes, mime: info.mime, source };
    if (info.width !== undefined) image.width = info.width;
    if (info.height !== undefined) image.height = info.height;
    images.push(image);
    return { type: 'image', name, alt };
  }

  return { collect, images, warnings };
}

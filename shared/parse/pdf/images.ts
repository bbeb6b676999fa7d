import { crc32 } from 'node:zlib';
import { extractedImageName } from '../image-info.ts';
import type { ExtractedImage } from '../types.ts';
import type { PaintedImage } from './page-objects.ts';
import { encodePng, PIXEL_KIND } from './png.ts';

/** Images smaller than this (pixels, either side) are rules, bullets and spacers, not content. */
export const MIN_IMAGE_SIDE = 32;

/** An extracted image at its place on a page, to be put among the page's text blocks. */
export interface PlacedImage {
  kind: 'image';
  name: string;
  page: number;
  top: number;
  x: number;
}

/** Collects a document's images in reading order and names them `img_001.png`, `img_002.jpg`, ... */
export interface PdfImages {
  add(page: number, image: PaintedImage): PlacedImage | undefined;
  readonly images: ExtractedImage[];
  /** What was skipped, as one warning per reason. */
  warnings(): string[];
}

function bytesPerRow(width: number, kind: number): number {
  if (kind === PIXEL_KIND.gray1) return Math.ceil(width / 8);
  return width * (kind === PIXEL_KIND.rgb ? 3 : 4);
}

/**
 * Creates the image collector of one PDF. A JPEG stored whole in the file is kept as it is (found by
 * its pixel size among `jpegs`); other images are encoded as PNG from the pixels pdf.js decoded. Tiny
 * images are skipped, and an image repeated on later pages (a logo in the header) is kept once;
 * each skip is counted in the warnings.
 */
export function createPdfImages(jpegs: ReadonlyMap<string, Uint8Array[]> = new Map()): PdfImages {
  const images: ExtractedImage[] = [];
  const seen = new Map<string, number>();
  let tiny = 0;
  let repeated = 0;
  let unreadable = 0;

  function add(page: number, painted: PaintedImage): PlacedImage | undefined {
    const pixels = painted.pixels;
    const kind = pixels?.kind ?? 0;
    if (!pixels?.data || !(kind in { 1: 1, 2: 1, 3: 1 }) || !(pixels.width > 0 && pixels.height > 0)) {
      unreadable++;
      return undefined;
    }
    if (pixels.width < MIN_IMAGE_SIDE || pixels.height < MIN_IMAGE_SIDE) {
      tiny++;
      return undefined;
    }
    const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
    if (data.length < bytesPerRow(pixels.width, kind) * pixels.height) {
      unreadable++;
      return undefined;
    }
    const key = `${pixels.width}x${pixels.height}:${crc32(data)}`;
    const firstPage = seen.get(key);
    if (firstPage !== undefined && firstPage !== page) {
      repeated++;
      return undefined;
    }
    seen.set(key, page);
    const originals = jpegs.get(`${pixels.width}x${pixels.height}`);
    // Only an unambiguous match is the same image; otherwise the decoded pixels are encoded.
    const jpeg = originals?.length === 1 ? originals[0] : undefined;
    const name = extractedImageName(images.length + 1, jpeg ? 'jpg' : 'png');
    images.push({
      name,
      bytes: jpeg ?? encodePng(pixels.width, pixels.height, kind, data),
      mime: jpeg ? 'image/jpeg' : 'image/png',
      width: pixels.width,
      height: pixels.height,
      source: `page ${page}`,
    });
    return { kind: 'image', name, page, top: painted.top, x: painted.x };
  }

  function warnings(): string[] {
    const out: string[] = [];
    if (tiny > 0) out.push(`${tiny} image(s) smaller than ${MIN_IMAGE_SIDE} px skipped`);
    if (repeated > 0) out.push(`${repeated} image(s) repeated on later pages (logos, decorations) kept once`);
    if (unreadable > 0) out.push(`${unreadable} image(s) skipped: pdf.js could not decode their pixels`);
    return out;
  }

  return { add, images, warnings };
}

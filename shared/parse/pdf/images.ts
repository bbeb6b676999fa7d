import { crc32 } from 'node:zlib';
import { extractedImageName } from '../image-info.ts';
import type { ExtractedImage } from '../types.ts';
import type { ImageStreams } from './image-streams.ts';
import type { ImagePixels, PaintedImage, StoredJpeg } from './page-objects.ts';
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

/** The JPEGs stored whole in a PDF, by pixel size and by XObject number. */
export type StoredJpegs = Pick<ImageStreams, 'jpegs' | 'jpegObjects'>;

/** Collects a document's images in reading order and names them `img_001.png`, `img_002.jpg`, ... */
export interface PdfImages {
  add(page: number, image: PaintedImage): PlacedImage | undefined;
  /** Counts images too small to extract that a page names but that were not decoded. */
  skipTiny(count: number): void;
  readonly images: ExtractedImage[];
  /** What was skipped, as one warning per reason. */
  warnings(): string[];
}

function bytesPerRow(width: number, kind: number): number {
  if (kind === PIXEL_KIND.gray1) return Math.ceil(width / 8);
  return width * (kind === PIXEL_KIND.rgb ? 3 : 4);
}

/** A JPEG stored whole for the painted pixels: the same XObject, else the only JPEG of that pixel size. */
function storedJpeg(streams: StoredJpegs, pixels: ImagePixels): StoredJpeg | undefined {
  const ref = /^(\d+)R$/.exec(pixels.ref ?? '');
  const byObject = ref ? streams.jpegObjects.get(Number(ref[1])) : undefined;
  if (byObject) return byObject;
  const originals = streams.jpegs.get(`${pixels.width}x${pixels.height}`);
  // Only an unambiguous match is the same image; otherwise the decoded pixels are encoded.
  const only = originals?.length === 1 ? originals[0] : undefined;
  return only ? { bytes: only, width: pixels.width, height: pixels.height } : undefined;
}

/**
 * Creates the image collector of one PDF. A JPEG stored whole in the file is kept as it is (given
 * as such, or found for decoded pixels by its XObject or pixel size among `streams`); other images
 * are encoded as PNG from the pixels pdf.js decoded. Tiny images are skipped, and an image repeated
 * on later pages (a logo in the header) is kept once; each skip is counted in the warnings.
 */
export function createPdfImages(
  streams: StoredJpegs = { jpegs: new Map(), jpegObjects: new Map() },
): PdfImages {
  const images: ExtractedImage[] = [];
  const seen = new Map<string, number>();
  let tiny = 0;
  let repeated = 0;
  let unreadable = 0;

  /** Whether the image is new here, counting a repeat of an earlier page's. */
  function isFirst(key: string, page: number): boolean {
    const firstPage = seen.get(key);
    if (firstPage !== undefined && firstPage !== page) {
      repeated++;
      return false;
    }
    seen.set(key, page);
    return true;
  }

  function keep(page: number, painted: PaintedImage, image: Omit<ExtractedImage, 'name' | 'source'>) {
    const name = extractedImageName(images.length + 1, image.mime === 'image/jpeg' ? 'jpg' : 'png');
    images.push({ name, ...image, source: `page ${page}` });
    return { kind: 'image' as const, name, page, top: painted.top, x: painted.x };
  }

  function addJpeg(page: number, painted: PaintedImage, jpeg: StoredJpeg): PlacedImage | undefined {
    if (jpeg.width < MIN_IMAGE_SIDE || jpeg.height < MIN_IMAGE_SIDE) {
      tiny++;
      return undefined;
    }
    if (!isFirst(`jpeg:${crc32(jpeg.bytes)}`, page)) return undefined;
    return keep(page, painted, {
      bytes: jpeg.bytes,
      mime: 'image/jpeg',
      width: jpeg.width,
      height: jpeg.height,
    });
  }

  function add(page: number, painted: PaintedImage): PlacedImage | undefined {
    if (painted.jpeg) return addJpeg(page, painted, painted.jpeg);
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
    const jpeg = storedJpeg(streams, pixels);
    if (jpeg) return addJpeg(page, painted, jpeg);
    const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
    if (data.length < bytesPerRow(pixels.width, kind) * pixels.height) {
      unreadable++;
      return undefined;
    }
    if (!isFirst(`${pixels.width}x${pixels.height}:${crc32(data)}`, page)) return undefined;
    return keep(page, painted, {
      bytes: encodePng(pixels.width, pixels.height, kind, data),
      mime: 'image/png',
      width: pixels.width,
      height: pixels.height,
    });
  }

  function warnings(): string[] {
    const out: string[] = [];
    if (tiny > 0) out.push(`${tiny} image(s) smaller than ${MIN_IMAGE_SIDE} px skipped`);
    if (repeated > 0) out.push(`${repeated} image(s) repeated on later pages (logos, decorations) kept once`);
    if (unreadable > 0) out.push(`${unreadable} image(s) skipped: pdf.js could not decode their pixels`);
    return out;
  }

  return {
    add,
    images,
    warnings,
    skipTiny: (count) => {
      tiny += count;
    },
  };
}

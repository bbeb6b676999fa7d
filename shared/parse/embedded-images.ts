import { extractedImageName, readImageInfo } from './image-info.ts';
import type { ExtractedImage } from './types.ts';

/** What an embedded image's bytes are, and whether a browser can show it. */
export interface Format {
  mime: string;
  extension: string;
  /** Formats a browser cannot show are kept (OCR and descriptions may still read them) but reported. */
  previewable: boolean;
  width?: number;
  height?: number;
}

/** An EMF file starts with an EMR_HEADER record (type 1) whose signature at byte 40 is " EMF". */
function isEmf(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 44 &&
    bytes[0] === 1 &&
    bytes[1] === 0 &&
    bytes[2] === 0 &&
    bytes[3] === 0 &&
    Buffer.from(bytes.subarray(40, 44)).toString('latin1') === ' EMF'
  );
}

/** A WMF file starts with the placeable header key or a standard metafile header. */
function isWmf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4)).toString('hex');
  return head === 'd7cdc69a' || head === '01000900' || head === '02000900';
}

const OTHER_EXTENSIONS: Record<string, string> = {
  'image/tiff': 'tif',
  'image/svg+xml': 'svg',
  'image/x-emf': 'emf',
  'image/x-wmf': 'wmf',
};

/**
 * The format of an embedded Office image: PNG, JPEG, GIF, WebP and BMP by their headers (with their
 * dimensions), EMF and WMF by their signatures, anything else by the content type the package gives.
 */
export function formatOf(bytes: Uint8Array, contentType: string | undefined): Format {
  const info = readImageInfo(bytes);
  if (info) return { ...info, previewable: true };
  if (isEmf(bytes)) return { mime: 'image/emf', extension: 'emf', previewable: false };
  if (isWmf(bytes)) return { mime: 'image/wmf', extension: 'wmf', previewable: false };
  const mime = contentType?.startsWith('image/') ? contentType : 'application/octet-stream';
  return { mime, extension: OTHER_EXTENSIONS[mime] ?? 'bin', previewable: false };
}

/** The pictures an Office document embeds, named in the order they are added. */
export interface EmbeddedImages {
  /**
   * Keeps a picture as `img_00n.<ext>` (its format told by `formatOf`) and returns that name; a
   * format a browser cannot show (EMF, WMF, TIFF) is kept with a warning.
   */
  add(bytes: Uint8Array, contentType: string | undefined, source: string): string;
  readonly images: ExtractedImage[];
  readonly warnings: string[];
}

/**
 * Creates the embedded-image list of one document (shared by the DOCX, PPTX, DOC and PPT readers).
 *
 * @example createEmbeddedImages().add(pngBytes, 'image/png', 'word/media/image1.png') // 'img_001.png'
 */
export function createEmbeddedImages(warnings: string[] = []): EmbeddedImages {
  const images: ExtractedImage[] = [];
  function add(bytes: Uint8Array, contentType: string | undefined, source: string): string {
    const format = formatOf(bytes, contentType);
    const name = extractedImageName(images.length + 1, format.extension);
    const extracted: ExtractedImage = { name, bytes, mime: format.mime, source };
    if (format.width !== undefined) extracted.width = format.width;
    if (format.height !== undefined) extracted.height = format.height;
    images.push(extracted);
    if (!format.previewable) {
      warnings.push(`${name} is ${format.mime}, which cannot be previewed; it is kept as it is`);
    }
    return name;
  }
  return { add, images, warnings };
}

import { UnsupportedDocumentError } from '#shared/errors.ts';
import { extractedImageName, readImageInfo } from './image-info.ts';
import { titleFromFilename } from './title.ts';
import type { ExtractedImage, ParsedDocument, Parser } from './types.ts';

/** Picture formats read as documents (scans and photos): what OCR and the vision models take, after conversion. */
const DOCUMENT_IMAGES = new Set([
  'image/png',
  'image/jpeg',
  'image/tiff',
  'image/bmp',
  'image/gif',
  'image/webp',
]);

/** Whether the bytes are a picture DropQA reads as a document of its own (a scan, a photo). */
export function isDocumentImage(bytes: Uint8Array): boolean {
  const info = readImageInfo(bytes);
  return info !== undefined && DOCUMENT_IMAGES.has(info.mime);
}

/**
 * A picture file as a document (a page scanned to PNG, JPEG or TIFF, a photo of a whiteboard): one
 * image node (`metadata.file`: the file's name), the picture itself, so answers cite the image; its
 * text comes from the Images step
 * (OCR, and the vision model's description when one is configured), as a scanned PDF page's does.
 *
 * @example await imageParser.parse({ bytes: scanPng, filename: 'invoice-scan.png' }) // one image node 'img_001.png'
 */
export const imageParser: Parser = {
  type: 'image',
  async parse(input): Promise<ParsedDocument> {
    const info = readImageInfo(input.bytes);
    if (!info || !DOCUMENT_IMAGES.has(info.mime)) {
      throw new UnsupportedDocumentError(
        `${input.filename} is not a PNG, JPEG, TIFF, BMP, GIF or WebP image`,
      );
    }
    const title = titleFromFilename(input.filename);
    const image: ExtractedImage = {
      name: extractedImageName(1, info.extension),
      bytes: input.bytes,
      mime: info.mime,
      source: input.filename,
      ...(info.width !== undefined ? { width: info.width } : {}),
      ...(info.height !== undefined ? { height: info.height } : {}),
    };
    return {
      title,
      metadata: { image: { mime: info.mime, width: info.width ?? null, height: info.height ?? null } },
      children: [{ type: 'image', name: image.name, alt: '', metadata: { file: input.filename } }],
      images: [image],
      warnings: [],
    };
  },
};

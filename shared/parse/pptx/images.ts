import { reasonOf } from '#shared/errors.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { createEmbeddedImages } from '../embedded-images.ts';
import type { ExtractedImage, ImageNode } from '../types.ts';
import type { Relationship } from './package.ts';
import { sizeText } from './size-text.ts';
import { child, path, type XmlElement } from './xml.ts';

/** Content types of image formats the headers do not identify, by the media part's extension. */
const CONTENT_TYPES: Record<string, string> = {
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  emf: 'image/x-emf',
  wmf: 'image/x-wmf',
};

/** Turns the pictures of a presentation into extracted images and image nodes, in reading order. */
export interface PptxImages {
  /** An image node for a `p:pic`, or undefined (with a warning) when it has no embedded image. */
  collect(
    picture: XmlElement,
    rels: Map<string, Relationship>,
    metadata: Record<string, unknown>,
  ): ImageNode | undefined;
  readonly images: ExtractedImage[];
  readonly warnings: string[];
}

function altText(picture: XmlElement): string {
  const properties = path(picture, 'nvPicPr', 'cNvPr')?.attributes;
  return collapseSpaces(properties?.descr ?? properties?.title ?? '');
}

/**
 * Creates the image collector of one presentation: images named `img_001.png`, `img_002.emf`, ... in
 * the order they appear; formats a browser cannot show (EMF, WMF, TIFF) kept with a warning, as the
 * DOCX parser does. Linked pictures (`r:link`, or a relationship to an external target) are never
 * read: they leave a warning and no node. A media part shown on many slides is read once and its
 * bytes shared; once the extracted images add up to `maxTotalBytes`, further ones are skipped with a
 * warning (a small picture repeated on thousands of slides would otherwise be written thousands of
 * times).
 */
export function createPptxImages(
  read: (part: string) => Uint8Array | undefined,
  maxTotalBytes: number,
): PptxImages {
  const warnings: string[] = [];
  const embedded = createEmbeddedImages(warnings);
  const media = new Map<string, Uint8Array | string>();
  let totalBytes = 0;

  /** The bytes of a media part, or why there are none. */
  function mediaBytes(part: string): Uint8Array | string {
    const cached = media.get(part);
    if (cached !== undefined) return cached;
    let result: Uint8Array | string;
    try {
      const bytes = read(part);
      // A copy: a stored entry is a view into the whole presentation, which need not outlive the parse.
      result = !bytes ? `${part} is missing` : bytes.length === 0 ? 'it is empty' : new Uint8Array(bytes);
    } catch (error) {
      result = reasonOf(error);
    }
    media.set(part, result);
    return result;
  }

  function collect(
    picture: XmlElement,
    rels: Map<string, Relationship>,
    metadata: Record<string, unknown>,
  ): ImageNode | undefined {
    const alt = altText(picture);
    const where = typeof metadata.slide === 'number' ? ` on slide ${metadata.slide}` : '';
    const skip = (reason: string) => {
      warnings.push(`${alt ? `image "${alt.slice(0, 60)}"` : 'an image'}${where} skipped: ${reason}`);
      return undefined;
    };
    const blip = child(child(picture, 'blipFill'), 'blip');
    const embed = blip?.attributes['r:embed'];
    const rel = embed ? rels.get(embed) : undefined;
    if (!rel || rel.external) {
      const linked = rel?.external || blip?.attributes['r:link'] !== undefined;
      return skip(
        linked
          ? 'it is linked, not embedded, and linked images are never read'
          : 'it has no embedded picture',
      );
    }
    const bytes = mediaBytes(rel.target);
    if (typeof bytes === 'string') return skip(bytes);
    if (totalBytes + bytes.length > maxTotalBytes) {
      return skip(
        `the presentation's images exceed ${sizeText(maxTotalBytes)} (limits.maxUncompressedBytes)`,
      );
    }
    totalBytes += bytes.length;
    const extension = rel.target.slice(rel.target.lastIndexOf('.') + 1).toLowerCase();
    const name = embedded.add(bytes, CONTENT_TYPES[extension], rel.target);
    return { type: 'image', name, alt, metadata };
  }

  return { collect, images: embedded.images, warnings };
}

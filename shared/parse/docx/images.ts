import { reasonOf } from '#shared/errors.ts';
import { createEmbeddedImages } from '../embedded-images.ts';
import type { ExtractedImage, ImageNode } from '../types.ts';
import type { DocxImage } from './model.ts';

/** Turns the images of a Word document into extracted images and image nodes, in reading order. */
export interface DocxImages {
  collect(image: DocxImage): Promise<ImageNode | undefined>;
  readonly images: ExtractedImage[];
  readonly warnings: string[];
}

/**
 * Creates the image collector of one document: images named `img_001.png`, `img_002.emf`, ... in the
 * order they appear. Linked images are not read (mammoth's external file access is off): they leave a
 * warning and no node.
 */
export function createDocxImages(): DocxImages {
  const warnings: string[] = [];
  const embedded = createEmbeddedImages(warnings);

  async function collect(image: DocxImage): Promise<ImageNode | undefined> {
    const alt = image.altText?.trim() ?? '';
    const label = alt ? `image "${alt.slice(0, 60)}"` : `image ${embedded.images.length + 1}`;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await image.readAsBuffer());
    } catch (error) {
      warnings.push(`${label} skipped: ${reasonOf(error)}`);
      return undefined;
    }
    if (bytes.length === 0) {
      warnings.push(`${label} skipped: it is empty`);
      return undefined;
    }
    const name = embedded.add(bytes, image.contentType, 'word/media');
    return { type: 'image', name, alt };
  }

  return { collect, images: embedded.images, warnings };
}

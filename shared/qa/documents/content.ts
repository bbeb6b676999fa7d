import { stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ContentPart } from '#shared/llm/types.ts';
import { documentText } from '../prompt.ts';
import type { CachedBlob } from './assets.ts';
import type { DocumentBlock } from './markers.ts';

/** Image types every multimodal provider here accepts as bytes. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * A document as the Stage-1 model sees it (docs/spec.md#stage-1): inside one
 * `<document_content>` ... `</document_content>` block (document text is data), each text block after
 * its `[DOC-…-PARA-n]` marker, each image as `[DOC-…-IMAGE-n: img_001.png]` followed by its bytes,
 * in reading order. Images without bytes, or of a type the models do not take, keep their marker
 * and alt text only.
 */
export function buildDocumentContent(
  name: string,
  shortId: string,
  blocks: DocumentBlock[],
  images: Map<string, CachedBlob>,
): ContentPart[] {
  const parts: ContentPart[] = [];
  let text = `<document_content id="DOC-${shortId}" name="${stripDelimiters(name).replace(/"/g, "'")}">\n`;
  for (const block of blocks) {
    if (block.kind === 'text') {
      // A marker inside the document's own text is neutralized: only the ones written here are real.
      text += `[${block.ref}]\n${documentText(block.text)}\n\n`;
      continue;
    }
    const alt = block.alt ? ` (${stripDelimiters(block.alt)})` : '';
    text += `[${block.ref}: ${block.filename}]${alt}\n`;
    const image = images.get(block.filename);
    if (image && MODEL_IMAGE_TYPES.has(image.mime)) {
      parts.push({ type: 'text', text });
      parts.push({ type: 'image', bytes: image.bytes, mime: image.mime });
      text = '\n';
    }
  }
  parts.push({ type: 'text', text: `${text}</document_content>` });
  return parts;
}

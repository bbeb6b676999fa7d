import PptxGenJS from 'pptxgenjs';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';
import { zipBytes } from './fixtures.ts';

/** Presentations built in code with `pptxgenjs`, and edits of their XML parts. */

/** A slide master with a title and a body placeholder, as PowerPoint's "Title and Content". */
export const TITLE_AND_BODY = 'TITLE_AND_BODY';

export async function pptxBytes(build: (deck: PptxGenJS) => void, title = 'Board deck'): Promise<Uint8Array> {
  const deck = new PptxGenJS();
  deck.title = title;
  deck.defineSlideMaster({
    title: TITLE_AND_BODY,
    objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.2, w: 9, h: 1 }, text: '' } },
      { placeholder: { options: { name: 'body', type: 'body', x: 0.5, y: 1.5, w: 9, h: 3 }, text: '' } },
    ],
  });
  build(deck);
  return new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
}

/**
 * Rewrites the XML of some parts (`edit` returns the new text, or undefined to keep a part), keeps
 * the rest and appends `extra` parts, re-zipped.
 */
export function rewritePptx(
  bytes: Uint8Array,
  edit: (name: string, xml: string) => string | undefined,
  extra: { name: string; data: string | Uint8Array }[] = [],
): Uint8Array {
  const entries = readZipDirectory(bytes).map((entry) => {
    const data = readZipEntry(bytes, entry, 64 * 1024 * 1024);
    const edited = /\.(xml|rels)$/.test(entry.name)
      ? edit(entry.name, new TextDecoder().decode(data))
      : undefined;
    return { name: entry.name, data: edited ?? new Uint8Array(data), deflate: true };
  });
  return zipBytes([...entries, ...extra.map((part) => ({ ...part, deflate: true }))]);
}

/** A data URI for pptxgenjs's `addImage`. */
export function imageData(mime: string, bytes: Uint8Array): string {
  return `${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** An EMF header record: type 1, size 108, then the " EMF" signature at byte 40. */
export function emfHeader(): Uint8Array {
  const bytes = new Uint8Array(108);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 1, true);
  view.setUint32(4, 108, true);
  bytes.set([0x20, 0x45, 0x4d, 0x46], 40);
  return bytes;
}

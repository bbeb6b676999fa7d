import { UnsupportedDocumentError } from '#shared/errors.ts';
import { damagedFile } from '../damaged.ts';
import { createEmbeddedImages } from '../embedded-images.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { type Blip, fbsePicture } from '../officeart/blip.ts';
import { openOle } from '../ole.ts';
import { titleFromFilename } from '../title.ts';
import type { ImageNode, ParagraphNode, ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import {
  NOTES_TYPE,
  type PptDeck,
  type PptPicture,
  type PptSlide,
  type PptText,
  readDeck,
  TITLE_TYPES,
} from './read-deck.ts';

function paragraphs(text: string, metadata: Record<string, unknown>): ParagraphNode[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => ({ type: 'paragraph', text: block, metadata }));
}

/** A first line longer than this is not a title (as for .pptx slides). */
const MAX_TITLE_CHARS = 100;

/**
 * The slide's title and the texts left: its title placeholder's text, else the first line of its
 * first text when short enough to be a title (taken out of the body, as .pptx slides do).
 */
function takeTitle(texts: PptText[]): { title: string; body: PptText[] } {
  const body = texts.filter((text) => text.textType !== NOTES_TYPE);
  const placeholder = body.findIndex((text) => TITLE_TYPES.has(text.textType));
  if (placeholder >= 0) {
    const title = body[placeholder]?.text.replace(/\s+/g, ' ') ?? '';
    return { title, body: body.filter((_, i) => i !== placeholder) };
  }
  const [first, ...rest] = body;
  if (!first) return { title: '', body };
  const [line = '', ...more] = first.text.split('\n');
  if (line.length > MAX_TITLE_CHARS) return { title: '', body };
  const left = more.join('\n').trim();
  return { title: line.trim(), body: left ? [{ ...first, text: left }, ...rest] : rest };
}

function slideSection(slide: PptSlide, number: number, images: ImageNode[]): SectionNode {
  const metadata = { slide: number };
  const { title, body } = takeTitle(slide.texts);
  return {
    type: 'section',
    title: title || `Slide ${number}`,
    children: [
      ...body.flatMap((text) => paragraphs(text.text, metadata)),
      ...images,
      ...slide.notes.flatMap((text) => paragraphs(text, { ...metadata, kind: 'notes' })),
    ],
    metadata,
  };
}

/**
 * Parses a PowerPoint 97-2003 presentation (.ppt): no maintained npm package reads its text with the
 * slide structure, so the records are read here (`readDeck`, over the `cfb` container). A section per
 * slide in presentation order, titled by its title placeholder (else "Slide n"), its other texts as
 * paragraphs, then its pictures (from the Pictures stream through the BStore; EMF and WMF kept with a
 * warning, unreadable ones skipped with one), and its speaker notes last (`metadata.kind: 'notes'`),
 * as .pptx slides are. Encrypted presentations fail with that reason, damaged ones with what was wrong.
 */
export async function parsePpt(input: ParseInput): Promise<ParsedDocument> {
  const ole = openOle(input.bytes, input.filename);
  const stream = ole.stream('PowerPoint Document');
  if (!stream) {
    throw new UnsupportedDocumentError(
      `${input.filename} is not a PowerPoint 97-2003 presentation (no PowerPoint Document stream)`,
    );
  }
  let deck: PptDeck;
  try {
    deck = readDeck(stream, ole.stream('Current User'), input.filename);
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    throw damagedFile(
      input.filename,
      'the slides of the PowerPoint 97-2003 presentation could not be read',
      error,
    );
  }
  const warnings: string[] = [];
  const images = createEmbeddedImages(warnings);
  const maxBytes = (input.limits ?? DEFAULT_PARSE_LIMITS).maxUncompressedBytes;
  const pictures = ole.stream('Pictures');
  /** A picture shown on many slides is read once; each of its nodes gets its own image. */
  const read = new Map<number, Blip>();
  const imageNode = (picture: PptPicture, slide: number): ImageNode | undefined => {
    let blip = read.get(picture.pib);
    if (!blip) {
      const entry = deck.bstore[picture.pib - 1];
      blip = entry
        ? fbsePicture(stream, entry, pictures, maxBytes)
        : { reason: 'its picture entry is missing' };
      read.set(picture.pib, blip);
    }
    if ('reason' in blip) {
      warnings.push(`a picture on slide ${slide} skipped: ${blip.reason}`);
      return undefined;
    }
    const name = images.add(blip.bytes, blip.contentType, 'Pictures');
    return { type: 'image', name, alt: picture.alt, metadata: { slide } };
  };
  const children = deck.slides.map((slide, i) => {
    input.signal?.throwIfAborted();
    const nodes = slide.pictures.flatMap((picture) => imageNode(picture, i + 1) ?? []);
    return slideSection(slide, i + 1, nodes);
  });
  return {
    title: titleFromFilename(input.filename),
    metadata: { slides: children.length },
    children,
    images: images.images,
    warnings,
  };
}

/** The PowerPoint 97-2003 parser of the registry. */
export const pptParser: Parser = { type: 'ppt', parse: parsePpt };

import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { readCoreProperties } from '../core-properties.ts';
import { damagedFile } from '../damaged.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { DamagedZipError } from '../zip.ts';
import { openPresentationArchive, unreadablePresentation } from './container.ts';
import { createPptxImages, type PptxImages } from './images.ts';
import { openPackage } from './package.ts';
import { readSlides, type SlideSections } from './read-slides.ts';

/** Titles the templates leave in the core properties, which name no presentation in particular. */
const TEMPLATE_TITLE =
  /^(?:(?:microsoft\s+)?powerpoint[\s-]*)?(?:presentation|präsentation|présentation|presentación|presentazione|演示文稿|簡報|プレゼンテーション)\s*\d*$/i;

/**
 * Parses a PowerPoint presentation (.pptx, .pptm) by reading its OOXML parts: one section per slide
 * in presentation order (nested under the deck's named sections, `{kind: 'slide-group'}`, when it
 * has several), titled by its title placeholder (else its first text), with body text in
 * reading order (bullets as list paragraphs), tables, chart titles, SmartArt text, pictures at their
 * place and speaker notes (`metadata.kind: 'notes'`) last; hidden slides kept with `{hidden: true}`.
 * Title: the core properties' title (unless it is a template's "PowerPoint Presentation"), else the
 * first slide's title, else the file name. Linked pictures are never read. Fails with a readable
 * reason for encrypted, legacy, corrupt and oversized presentations (`limits.maxSlides`; the archive
 * limits are `parseDocument`'s); stops between slides once `input.signal` aborts (the parse time limit).
 *
 * @example (await parsePptx({ bytes, filename: 'deck.pptx' })).children[0] // { type: 'section', title: 'Intro', metadata: { slide: 1 }, ... }
 */
export async function parsePptx(input: ParseInput): Promise<ParsedDocument> {
  const { bytes, filename } = input;
  const limits = input.limits ?? DEFAULT_PARSE_LIMITS;
  const entries = openPresentationArchive(bytes, filename);
  let images: PptxImages;
  let slides: SlideSections;
  try {
    const pkg = openPackage(bytes, entries, limits.maxUncompressedBytes);
    images = createPptxImages(pkg.bytes, limits.maxUncompressedBytes);
    slides = await readSlides(pkg, input, images);
  } catch (error) {
    // A part that will not inflate: the archive's reason alone would not name the file.
    if (error instanceof DamagedZipError) {
      throw damagedFile(filename, 'a part of its ZIP archive is corrupted', error);
    }
    // The deadline's own reason (or a caller's abort) passes through as it is.
    if (
      error instanceof UnsupportedDocumentError ||
      (input.signal?.aborted && error === input.signal.reason)
    ) {
      throw error;
    }
    throw unreadablePresentation(filename, reasonOf(error), error);
  }
  const core = readCoreProperties(bytes, entries);
  const coreTitle = core.title && !TEMPLATE_TITLE.test(core.title) ? core.title : undefined;
  return {
    title: coreTitle ?? slides.firstTitle ?? titleFromFilename(filename),
    metadata: { ...core, slides: slides.count },
    children: slides.sections,
    images: images.images,
    warnings: [...slides.warnings, ...images.warnings],
  };
}

/** The PowerPoint parser of the registry. */
export const pptxParser: Parser = { type: 'pptx', parse: parsePptx };

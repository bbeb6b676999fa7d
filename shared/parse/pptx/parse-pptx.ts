import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { readCoreProperties } from '../core-properties.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import { openPresentationArchive, unreadablePresentation } from './container.ts';
import { createPptxImages } from './images.ts';
import { openPackage } from './package.ts';
import { listSlides } from './presentation.ts';
import { readSlide } from './slide.ts';

/** Titles the templates leave in the core properties, which name no presentation in particular. */
const TEMPLATE_TITLE =
  /^(?:(?:microsoft\s+)?powerpoint[\s-]*)?(?:presentation|präsentation|présentation|presentación|presentazione|演示文稿|簡報|プレゼンテーション)\s*\d*$/i;

/**
 * Parses a PowerPoint presentation (.pptx, .pptm) by reading its OOXML parts: one section per slide
 * in presentation order, titled by its title placeholder (else its first text), with body text in
 * reading order (bullets as list paragraphs), tables, chart titles, SmartArt text, pictures at their
 * place and speaker notes (`metadata.kind: 'notes'`) last; hidden slides kept with `{hidden: true}`.
 * Title: the core properties' title (unless it is a template's "PowerPoint Presentation"), else the
 * first slide's title, else the file name. Linked
 * pictures are never read. Fails with a readable reason for encrypted, legacy, corrupt and
 * oversized presentations (`limits.maxSlides` and the archive limits).
 *
 * @example (await parsePptx({ bytes, filename: 'deck.pptx' })).children[0] // { type: 'section', title: 'Intro', metadata: { slide: 1 }, ... }
 */
export async function parsePptx(input: ParseInput): Promise<ParsedDocument> {
  const { bytes, filename } = input;
  const limits = input.limits ?? DEFAULT_PARSE_LIMITS;
  const entries = openPresentationArchive(bytes, filename, limits);
  const pkg = openPackage(bytes, entries);
  const images = createPptxImages(pkg.bytes);
  const warnings: string[] = [];
  const children: SectionNode[] = [];
  let firstSlideTitle: string | undefined;
  try {
    const list = listSlides(pkg);
    if (!list) throw new Error('the archive has no presentation part (ppt/presentation.xml)');
    if (list.slides.length > limits.maxSlides) {
      throw new Error(
        `it has ${list.slides.length} slides (at most ${limits.maxSlides} are read; limits.maxSlides)`,
      );
    }
    for (const [index, slide] of list.slides.entries()) {
      if (slide.missing) {
        warnings.push(`slide ${index + 1} was skipped: its part ${slide.part} is missing`);
        continue;
      }
      const section = readSlide(pkg, slide.part, index + 1, images);
      if (index === 0 && section.title !== `Slide ${index + 1}`) firstSlideTitle = section.title;
      children.push(section);
    }
  } catch (error) {
    if (error instanceof UnsupportedDocumentError) throw error;
    throw unreadablePresentation(filename, reasonOf(error), error);
  }
  const core = readCoreProperties(bytes, entries);
  const metadata: Record<string, unknown> = { ...core, slides: children.length };
  const coreTitle = core.title && !TEMPLATE_TITLE.test(core.title) ? core.title : undefined;
  return {
    title: coreTitle ?? firstSlideTitle ?? titleFromFilename(filename),
    metadata,
    children,
    images: images.images,
    warnings: [...warnings, ...images.warnings],
  };
}

/** The PowerPoint parser of the registry. */
export const pptxParser: Parser = { type: 'pptx', parse: parsePptx };

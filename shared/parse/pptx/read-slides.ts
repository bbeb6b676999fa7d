import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import type { ParseInput, SectionNode } from '../types.ts';
import type { PptxImages } from './images.ts';
import type { OpcPackage } from './package.ts';
import { listSlides } from './presentation.ts';
import { readSlide } from './slide.ts';

/** How long slides are read before the event loop gets a turn. */
const YIELD_EVERY_MS = 20;

/** The slides' sections in presentation order, and what was skipped. */
export interface SlideSections {
  /** One section per slide, nested in a `{ kind: 'slide-group' }` section per named section. */
  sections: SectionNode[];
  /** Slides read (missing ones are not). */
  count: number;
  /** The first slide's own title (not the "Slide 1" stand-in), if it has one. */
  firstTitle: string | undefined;
  warnings: string[];
}

/**
 * Reads every slide of the presentation into its section (grouped by the deck's named sections, when
 * it has several), refusing more than `limits.maxSlides` slides and stopping between slides once
 * `input.signal` aborts. A slide whose part is missing or already read is skipped with a warning.
 * Throws plain errors with a readable message for a broken package.
 */
export async function readSlides(
  pkg: OpcPackage,
  input: Pick<ParseInput, 'limits' | 'signal'>,
  images: PptxImages,
): Promise<SlideSections> {
  const limits = input.limits ?? DEFAULT_PARSE_LIMITS;
  const slides = listSlides(pkg);
  if (!slides) throw new Error('the archive has no presentation part (ppt/presentation.xml)');
  if (slides.length > limits.maxSlides) {
    throw new Error(
      `it has ${slides.length} slides (at most ${limits.maxSlides} are read; limits.maxSlides)`,
    );
  }
  const sections: SectionNode[] = [];
  const warnings: string[] = [];
  let firstTitle: string | undefined;
  let count = 0;
  /** Slide part -> the slide number that read it; PowerPoint never lists one part twice. */
  const seen = new Map<string, number>();
  let group: SectionNode | undefined;
  let lastYield = performance.now();
  for (const [index, slide] of slides.entries()) {
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      // Reading slides is synchronous: without a turn of the event loop the deadline's timer could
      // not fire (nor could anything else in the process run) until the whole deck was read.
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
    }
    input.signal?.throwIfAborted();
    if (slide.missing) {
      warnings.push(`slide ${index + 1} was skipped: its part ${slide.part} is missing`);
      continue;
    }
    const earlier = seen.get(slide.part);
    if (earlier !== undefined) {
      warnings.push(`slide ${index + 1} was skipped: it repeats slide ${earlier} (${slide.part})`);
      continue;
    }
    seen.set(slide.part, index + 1);
    const section = readSlide(pkg, slide.part, index + 1, images);
    if (index === 0 && section.title !== `Slide ${index + 1}`) firstTitle = section.title;
    // Slides of a named section nest under it; the order stays the presentation's, so a section
    // whose slides are not contiguous appears once per run of them.
    if (slide.group === undefined) group = undefined;
    else if (group?.title !== slide.group) {
      group = { type: 'section', title: slide.group, children: [], metadata: { kind: 'slide-group' } };
      sections.push(group);
    }
    (group?.children ?? sections).push(section);
    count++;
  }
  return { sections, count, firstTitle, warnings };
}

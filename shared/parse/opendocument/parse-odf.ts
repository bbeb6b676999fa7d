import type { Element } from 'domhandler';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { createImageCollector } from '../image-collector.ts';
import { createOutline } from '../outline.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, SectionNode } from '../types.ts';
import { inlineText, type OdfWalk, walkBlock } from './blocks.ts';
import { elements, findElement, type OdfPackage, openOdf } from './package.ts';
import { outlineLevels } from './styles.ts';

/** `dc:title`, `dc:subject`, `meta:initial-creator`, `dc:creator` of meta.xml, when set. */
function metaOf(pkg: OdfPackage): { title: string; metadata: Record<string, unknown> } {
  const metadata: Record<string, unknown> = {};
  const field = (name: string) => {
    const element = pkg.meta ? findElement(pkg.meta, name) : undefined;
    return element ? inlineText(element).trim() : '';
  };
  for (const [name, key] of [
    ['dc:title', 'title'],
    ['dc:subject', 'subject'],
    ['meta:initial-creator', 'creator'],
    ['dc:creator', 'lastModifiedBy'],
  ] as const) {
    const value = field(name);
    if (value) metadata[key] = value;
  }
  return { title: typeof metadata.title === 'string' ? metadata.title : '', metadata };
}

function setUp(input: ParseInput, kind: string) {
  const pkg = openOdf(input, kind);
  const images = createImageCollector({ ...input, readRelative: async (path) => pkg.read(path) });
  const levels = outlineLevels(pkg.styles, pkg.content);
  const body = findElement(pkg.content, 'office:body');
  return { pkg, images, levels, body };
}

/**
 * Parses an OpenDocument text (.odt): headings from `text:h` outline levels or from paragraph styles
 * with an outline level ("Heading 1" ... and the automatic styles derived from them), paragraphs,
 * lists, tables, charts (title and data table), footnotes after their paragraph, and images from the package's `Pictures/`. Title:
 * meta.xml's `dc:title`, else the file name.
 */
export async function parseOdt(input: ParseInput): Promise<ParsedDocument> {
  const { pkg, images, levels, body } = setUp(input, 'text document');
  const walk: OdfWalk = {
    outline: createOutline(),
    images,
    levels,
    read: pkg.read,
    ...(input.signal ? { signal: input.signal } : {}),
  };
  const text = body ? findElement(body, 'office:text') : undefined;
  if (text) for (const block of elements(text)) await walkBlock(block, walk);
  const { title, metadata } = metaOf(pkg);
  return {
    title: title || titleFromFilename(input.filename),
    metadata,
    children: walk.outline.finish(),
    images: images.images,
    warnings: images.warnings,
  };
}

function isTitleFrame(element: Element): boolean {
  return element.name === 'draw:frame' && element.attribs['presentation:class'] === 'title';
}

/**
 * Parses an OpenDocument presentation (.odp): a section per slide (`draw:page`) titled by its title
 * placeholder (else its name, else "Slide n"), its text boxes, tables, charts and images in order, and its
 * speaker notes last (`metadata.kind: 'notes'`), as .pptx and .ppt slides are.
 */
export async function parseOdp(input: ParseInput): Promise<ParsedDocument> {
  const { pkg, images, levels, body } = setUp(input, 'presentation');
  const presentation = body ? findElement(body, 'office:presentation') : undefined;
  const slides: SectionNode[] = [];
  const pages = presentation ? elements(presentation).filter((e) => e.name === 'draw:page') : [];
  for (const [i, page] of pages.entries()) {
    input.signal?.throwIfAborted();
    const number = i + 1;
    const metadata = { slide: number };
    const outline = createOutline();
    const walk: OdfWalk = { outline, images, levels, metadata, read: pkg.read };
    const titleFrame = elements(page).find(isTitleFrame);
    const title = titleFrame ? collapseSpaces(inlineText(titleFrame)) : '';
    for (const shape of elements(page)) {
      if (shape === titleFrame) continue;
      if (shape.name === 'presentation:notes') {
        const notes: OdfWalk = { ...walk, metadata: { ...metadata, kind: 'notes' } };
        for (const frame of elements(shape)) {
          if (frame.attribs['presentation:class'] === 'notes') await walkBlock(frame, notes);
        }
        continue;
      }
      await walkBlock(shape, walk);
    }
    const name = page.attribs['draw:name'] ?? '';
    slides.push({
      type: 'section',
      title: title || (/^page\d+$/.test(name) ? '' : name) || `Slide ${number}`,
      children: outline.finish(),
      metadata,
    });
  }
  const { title, metadata } = metaOf(pkg);
  return {
    title: title || titleFromFilename(input.filename),
    metadata,
    children: slides,
    images: images.images,
    warnings: images.warnings,
  };
}

/** The registry's OpenDocument text and presentation parsers. */
export const odtParser: Parser = { type: 'odt', parse: parseOdt };
export const odpParser: Parser = { type: 'odp', parse: parseOdp };

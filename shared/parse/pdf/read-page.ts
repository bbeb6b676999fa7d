import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { paintedImages } from './content-images.ts';
import type { FontIds } from './font-ids.ts';
import { isBoldFontName } from './font-names.ts';
import { MIN_IMAGE_SIDE, type PdfImages, type PlacedImage } from './images.ts';
import type { Line, TextRun } from './layout.ts';
import { groupLines } from './lines.ts';
import {
  type Ops,
  type PageFont,
  type PaintedImage,
  readPageObjects,
  type StoredJpeg,
} from './page-objects.ts';
import { isLargeImage, type PageResources, readPageResources } from './page-resources.ts';
import type { RawObjects } from './raw-objects.ts';
import { textRuns } from './runs.ts';

/** What one page gives: its lines (top to bottom), box and extracted images. */
export interface PageContent {
  lines: Line[];
  box: readonly number[];
  images: PlacedImage[];
}

/** Reads one page (1-based) of the document. */
export type PageReader = (number: number) => Promise<PageContent>;

/** What the page reader knows of the file beyond pdf.js. */
export interface PageSources {
  /** The file's objects, read straight from its bytes. */
  objects: RawObjects;
  /** Tells the boldness of the fonts pdf.js names, read from the same objects. */
  fontIds: FontIds;
  /** Whether the file stores any image worth extracting. */
  hasImages: boolean;
  /** Whether it stores images too small to extract, counted as skipped where a page names them. */
  hasSmallImages: boolean;
  /** The JPEGs stored whole, by XObject number. */
  jpegObjects: ReadonlyMap<number, StoredJpeg>;
}

/** A subset font's name (`ABCDEF+Name`) is unique to one font program in the file. */
const SUBSET_NAME = /^[A-Z]{6}\+/;

/** What the page needs pdf.js's operator list for, from its resources as the file states them. */
interface Needs {
  operatorList: boolean;
  /** Its own JPEG XObjects by resource name, to place from the content stream when the list is not read. */
  jpegs: Map<string, StoredJpeg>;
}

function needs(
  resources: PageResources | undefined,
  newFonts: boolean,
  sources: PageSources,
  knownNames: ReadonlySet<string>,
): Needs {
  const jpegs = new Map<string, StoredJpeg>();
  if (!resources) return { operatorList: newFonts || sources.hasImages, jpegs };
  // A new font id may be any font of the page whose pdf.js id is not known yet: bold is only known from the list.
  const boldUnknown = resources.fonts.some(
    (name) =>
      name === undefined || (isBoldFontName(name) && !(SUBSET_NAME.test(name) && knownNames.has(name))),
  );
  let imagesNeedList = resources.formImages;
  for (const [name, image] of resources.images) {
    if (!isLargeImage(image, MIN_IMAGE_SIDE)) continue;
    const jpeg = sources.jpegObjects.get(image.ref);
    if (jpeg) jpegs.set(name, jpeg);
    else imagesNeedList = true;
  }
  return { operatorList: (newFonts && boldUnknown) || imagesNeedList, jpegs };
}

function contentOf(objects: RawObjects, resources: PageResources): string | undefined {
  const parts: string[] = [];
  for (const ref of resources.contents) {
    const data = objects.stream(ref);
    if (!data) return undefined;
    parts.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'));
  }
  return parts.join('\n');
}

/**
 * Creates the page reader of one document. A page's text content gives its lines. pdf.js's operator
 * list, which costs as much again as the text and decodes every image it paints, is read only for
 * a page that needs it: one using a font not seen before that may be bold when the font's id cannot
 * be matched to its name in the file (`sources.fontIds`), or painting an image to decode (not a
 * JPEG stored whole, or inside a form). A page's fonts and images come from its resources read
 * straight from the file (`sources.objects`); JPEGs stored whole are placed from the page's content
 * stream and kept as they are, never decoded. A page pdf.js cannot read makes the whole file fail
 * with a readable reason.
 */
export function createPageReader(
  doc: PDFDocumentProxy,
  ops: Ops,
  images: PdfImages,
  sources: PageSources,
  filename: string,
): PageReader {
  const fonts = new Map<string, { bold: boolean }>();
  const knownNames = new Set<string>();

  function learnFonts(learned: ReadonlyMap<string, PageFont>, runs: readonly TextRun[]): void {
    for (const [id, font] of learned) {
      fonts.set(id, font);
      if (font.name !== '') knownNames.add(font.name);
    }
    for (const run of runs) if (!fonts.has(run.font)) fonts.set(run.font, { bold: false });
  }

  async function readObjects(page: PDFPageProxy, number: number, runs: TextRun[]): Promise<PlacedImage[]> {
    const newIds = [...new Set(runs.filter((run) => !fonts.has(run.font)).map((run) => run.font))];
    const predicted = sources.fontIds.page(page.ref?.num, newIds);
    for (const [id, bold] of predicted ?? []) fonts.set(id, { bold });
    const newFonts = newIds.length > 0 && !predicted;
    if (!newFonts && !sources.hasImages && !sources.hasSmallImages) return [];
    const objects = sources.objects;
    const resources = page.ref ? readPageResources(objects, page.ref.num, MIN_IMAGE_SIDE) : undefined;
    const need = needs(resources, newFonts, sources, knownNames);
    const content =
      !need.operatorList && need.jpegs.size > 0 && resources ? contentOf(objects, resources) : '';
    const painted: PaintedImage[] = [];
    if (need.operatorList || content === undefined) {
      const read = await readPageObjects(page, ops);
      learnFonts(read.fonts, runs);
      painted.push(...read.images);
    } else {
      learnFonts(new Map(), runs);
      const small = [...(resources?.images.values() ?? [])].filter(
        (image) => !isLargeImage(image, MIN_IMAGE_SIDE),
      );
      images.skipTiny(small.length);
      for (const image of paintedImages(content, new Set(need.jpegs.keys()))) {
        painted.push({ ...image, jpeg: need.jpegs.get(image.name) });
      }
    }
    return painted.flatMap((image) => images.add(number, image) ?? []);
  }

  return async (number) => {
    try {
      const page = await doc.getPage(number);
      const runs = textRuns(await page.getTextContent());
      const placed = await readObjects(page, number, runs);
      const lines = groupLines(runs, fonts);
      page.cleanup();
      return { lines, box: page.view, images: placed };
    } catch (error) {
      throw new UnsupportedDocumentError(
        `${filename}: page ${number} could not be read (the file is corrupt or truncated): ${reasonOf(error)}`,
        { cause: error },
      );
    }
  };
}

import type { PDFDocumentProxy } from 'pdfjs-dist';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import type { PdfImages, PlacedImage } from './images.ts';
import type { Line } from './layout.ts';
import { groupLines } from './lines.ts';
import { type Ops, readPageObjects } from './page-objects.ts';
import { textRuns } from './runs.ts';

/** What one page gives: its lines (top to bottom), box and extracted images. */
export interface PageContent {
  lines: Line[];
  box: readonly number[];
  images: PlacedImage[];
}

/** Reads one page (1-based) of the document. */
export type PageReader = (number: number) => Promise<PageContent>;

/**
 * Creates the page reader of one document. A page's text content gives its lines; its operator list
 * gives the images it paints and whether its fonts are bold. The operator list costs about half as
 * much again as the text, so it is skipped for a page whose fonts are all known from earlier pages
 * when the file has no image worth extracting (`withImages` false). A page pdf.js cannot read makes
 * the whole file fail with a readable reason.
 */
export function createPageReader(
  doc: PDFDocumentProxy,
  ops: Ops,
  images: PdfImages,
  withImages: boolean,
  filename: string,
): PageReader {
  const fonts = new Map<string, { bold: boolean }>();
  return async (number) => {
    try {
      const page = await doc.getPage(number);
      const runs = textRuns(await page.getTextContent());
      const placed: PlacedImage[] = [];
      if (withImages || runs.some((run) => !fonts.has(run.font))) {
        const objects = await readPageObjects(page, ops);
        for (const [id, font] of objects.fonts) fonts.set(id, font);
        for (const run of runs) if (!fonts.has(run.font)) fonts.set(run.font, { bold: false });
        for (const painted of objects.images) {
          const image = images.add(number, painted);
          if (image) placed.push(image);
        }
      }
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

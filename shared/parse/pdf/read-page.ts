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

/**
 * Reads page `number` (1-based): its text content grouped into lines, with boldness from the fonts
 * its operator list sets, and its images added to the document's collector. A page pdf.js cannot
 * read makes the whole file fail with a readable reason.
 */
export async function readPage(
  doc: PDFDocumentProxy,
  number: number,
  ops: Ops,
  images: PdfImages,
  filename: string,
): Promise<PageContent> {
  try {
    const page = await doc.getPage(number);
    const content = await page.getTextContent();
    const objects = await readPageObjects(page, ops);
    const lines = groupLines(textRuns(content), objects.fonts);
    const placed: PlacedImage[] = [];
    for (const painted of objects.images) {
      const image = images.add(number, painted);
      if (image) placed.push(image);
    }
    page.cleanup();
    return { lines, box: page.view, images: placed };
  } catch (error) {
    throw new UnsupportedDocumentError(
      `${filename}: page ${number} could not be read (the file is corrupt or truncated): ${reasonOf(error)}`,
      { cause: error },
    );
  }
}

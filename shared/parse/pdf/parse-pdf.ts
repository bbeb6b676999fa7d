import { UnsupportedDocumentError } from '#shared/errors.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { outlineItems } from './apply-outline.ts';
import { buildPdfTree } from './build-tree.ts';
import { readingOrder } from './columns.ts';
import { type FlowEntry, placeImages } from './flow.ts';
import { createFontIds } from './font-ids.ts';
import { dropFurniture } from './furniture.ts';
import { bodySize, inferHeadings } from './headings.ts';
import { scanImageStreams } from './image-streams.ts';
import { createPdfImages, MIN_IMAGE_SIDE } from './images.ts';
import type { TextBlock } from './layout.ts';
import { readOutline } from './outline.ts';
import { joinAcrossPages } from './page-breaks.ts';
import { groupParagraphs } from './paragraphs.ts';
import { pdfTitle } from './pdf-title.ts';
import { loadPdfjs, openPdf } from './pdfjs.ts';
import { readRawObjects } from './raw-objects.ts';
import { createPageReader, type PageContent } from './read-page.ts';

const INFO_FIELDS: Record<string, string> = {
  Author: 'author',
  Subject: 'subject',
  Keywords: 'keywords',
  Creator: 'creator',
  Producer: 'producer',
};

function documentMetadata(info: unknown, pages: number): Record<string, unknown> {
  const metadata: Record<string, unknown> = { pages };
  for (const [field, key] of Object.entries(INFO_FIELDS)) {
    const value = (info as Record<string, unknown> | undefined)?.[field];
    if (typeof value === 'string' && value.trim() !== '') metadata[key] = value.trim();
  }
  return metadata;
}

/** A complete PDF ends with `%%EOF` (trailing whitespace or junk aside); a cut one usually does not. */
function endsWithEofMarker(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString('latin1');
  return tail.includes('%%EOF');
}

/**
 * Parses a PDF into the document tree with pdf.js, offline. Text is read in reading order (lines,
 * then paragraphs; two-column pages column by column), running headers, footers and page numbers are
 * dropped, and headings come from the outline (bookmarks) when there is one, else from the layout
 * (size, bold, numbering). Every leaf carries `{ page }`, every section `{ pageStart }`. Embedded
 * raster images are extracted at their place (JPEGs as stored, others as PNG). Password-protected,
 * corrupt and truncated files, and files over `limits.maxPages`, fail with an
 * `UnsupportedDocumentError`.
 */
export async function parsePdf(input: ParseInput): Promise<ParsedDocument> {
  const limits = input.limits ?? DEFAULT_PARSE_LIMITS;
  const { OPS } = await loadPdfjs();
  const doc = await openPdf(input.bytes, input.filename);
  try {
    if (doc.numPages > limits.maxPages) {
      throw new UnsupportedDocumentError(
        `${input.filename} has ${doc.numPages} pages, more than the ${limits.maxPages} allowed (limits.maxPages)`,
      );
    }
    const streams = scanImageStreams(input.bytes, MIN_IMAGE_SIDE);
    const images = createPdfImages(streams);
    const objects = readRawObjects(input.bytes);
    const readPage = createPageReader(
      doc,
      OPS,
      images,
      {
        objects,
        fontIds: createFontIds(objects),
        hasImages: streams.large > 0,
        hasSmallImages: streams.small > 0,
        jpegObjects: streams.jpegObjects,
      },
      input.filename,
    );
    const pages: PageContent[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      input.signal?.throwIfAborted();
      pages.push(await readPage(number));
    }
    const { pages: kept, dropped } = dropFurniture(pages);
    const blocks: TextBlock[][] = kept.map((lines, i) =>
      groupParagraphs(readingOrder(lines, pages[i]?.box ?? []), i + 1),
    );
    joinAcrossPages(blocks);
    const flow: FlowEntry[] = blocks.flatMap((page, i) => placeImages(page, pages[i]?.images ?? []));
    const body = bodySize(blocks.flat());
    const outline = await readOutline(doc);
    const items = outline.length > 0 ? outlineItems(flow, outline, doc.numPages) : inferHeadings(flow, body);
    const { info } = await doc.getMetadata().catch(() => ({ info: undefined }));
    const warnings = images.warnings();
    if (blocks.every((page) => page.length === 0)) {
      warnings.push('the PDF has no text layer (a scan?): only its images can be read, through OCR');
    }
    if (!endsWithEofMarker(input.bytes)) {
      warnings.push(
        'the file has no end-of-file marker (truncated?): pdf.js rebuilt what it could, some text may be missing',
      );
    }
    if (dropped > 0) warnings.push(`${dropped} running header, footer or page-number line(s) left out`);
    return {
      title: pdfTitle(info, blocks.flat(), body, input.filename),
      metadata: documentMetadata(info, doc.numPages),
      children: buildPdfTree(items),
      images: images.images,
      warnings,
    };
  } finally {
    await doc.destroy();
  }
}

/** The PDF parser of the registry. */
export const pdfParser: Parser = { type: 'pdf', parse: parsePdf };

import type { PDFPageProxy } from 'pdfjs-dist';
import { isBoldFontName } from './font-names.ts';
import { IDENTITY, type Matrix, multiply, type Placement, placement } from './matrix.ts';

/** Operator ids this reader needs (pdf.js's `OPS`). */
export interface Ops {
  save: number;
  restore: number;
  transform: number;
  setFont: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
}

/** Decoded pixels of an image as pdf.js hands them over. */
export interface ImagePixels {
  width: number;
  height: number;
  kind?: number;
  data?: Uint8Array | Uint8ClampedArray;
  /** The image XObject's reference (`63R`). */
  ref?: string;
}

/** A font a page uses: whether it is bold, and its name as pdf.js read it. */
export interface PageFont {
  bold: boolean;
  name: string;
}

/** A JPEG file stored whole in the PDF, with its pixel size. */
export interface StoredJpeg {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/** An image painted on a page: where (PDF units, y upwards), and its decoded pixels or its stored JPEG. */
export interface PaintedImage extends Placement {
  pixels?: ImagePixels | undefined;
  jpeg?: StoredJpeg;
}

/** pdf.js's `AnnotationMode.DISABLE`. */
const ANNOTATIONS_DISABLED = 0;

/** pdf.js sends decoded images after the operator list; one it never sends must not hang the parse. */
const IMAGE_WAIT_MS = 10_000;

function objectOf(page: PDFPageProxy, id: string): Promise<ImagePixels | undefined> {
  const store = id.startsWith('g_') ? page.commonObjs : page.objs;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), IMAGE_WAIT_MS);
    timer.unref();
    store.get(id, (data: unknown) => {
      clearTimeout(timer);
      resolve((data ?? undefined) as ImagePixels | undefined);
    });
  });
}

function fontOf(page: PDFPageProxy, id: string): PageFont {
  if (!page.commonObjs.has(id)) return { bold: false, name: '' };
  const font = page.commonObjs.get(id) as { name?: string; bold?: boolean; black?: boolean } | undefined;
  const name = font?.name ?? '';
  return { bold: font?.bold === true || font?.black === true || isBoldFontName(name), name };
}

/**
 * Reads what the text content does not say from a page's operator list: which fonts are bold (by
 * their names) and the raster images it paints, with their place (the current transformation matrix
 * applied to the unit square). Image masks and tiling patterns are left out.
 */
export async function readPageObjects(
  page: PDFPageProxy,
  ops: Ops,
): Promise<{ fonts: Map<string, PageFont>; images: PaintedImage[] }> {
  // Annotation appearances (form fields, stamps) are not the page's content; skipping them saves work.
  const list = await page.getOperatorList({ annotationMode: ANNOTATIONS_DISABLED });
  const fonts = new Map<string, PageFont>();
  const painted: { place: Placement; pixels: Promise<ImagePixels | undefined> }[] = [];
  let ctm: Matrix = IDENTITY;
  const stack: Matrix[] = [];
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = (list.argsArray[i] ?? []) as unknown[];
    if (fn === ops.save) stack.push(ctm);
    else if (fn === ops.restore) ctm = stack.pop() ?? ctm;
    else if (fn === ops.transform) ctm = multiply(ctm, args as number[]);
    else if (fn === ops.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args[0])) ctm = multiply(ctm, args[0] as number[]);
    } else if (fn === ops.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === ops.setFont) {
      const id = String(args[0]);
      if (!fonts.has(id)) fonts.set(id, fontOf(page, id));
    } else if (fn === ops.paintImageXObject && typeof args[0] === 'string') {
      painted.push({ place: placement(ctm), pixels: objectOf(page, args[0]) });
    } else if (fn === ops.paintInlineImageXObject && args[0]) {
      painted.push({ place: placement(ctm), pixels: Promise.resolve(args[0] as ImagePixels) });
    }
  }
  const images = await Promise.all(
    painted.map(async ({ place, pixels }) => ({ ...place, pixels: await pixels })),
  );
  return { fonts, images };
}

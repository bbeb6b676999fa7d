import type { PDFPageProxy } from 'pdfjs-dist';
import type { PageFonts } from './layout.ts';

type Matrix = [number, number, number, number, number, number];

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
}

/** An image painted on a page: where (PDF units, y upwards) and its pixels. */
export interface PaintedImage {
  /** Left edge, top edge, and the size on the page. */
  x: number;
  top: number;
  width: number;
  height: number;
  pixels: ImagePixels | undefined;
}

/** pdf.js's `AnnotationMode.DISABLE`. */
const ANNOTATIONS_DISABLED = 0;

const BOLD_NAME = /bold|black|heavy|semibold|demi|extrabold|ultrabold|[-,]bd\b|-b$/i;

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a, b, c, d, e, f] = m;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = n;
  return [
    a2 * a + b2 * c,
    a2 * b + b2 * d,
    c2 * a + d2 * c,
    c2 * b + d2 * d,
    e2 * a + f2 * c + e,
    e2 * b + f2 * d + f,
  ];
}

/** The page box a unit square painted under `m` covers. */
function placement(m: Matrix): Omit<PaintedImage, 'pixels'> {
  const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
  const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
  const x = Math.min(...xs);
  const top = Math.max(...ys);
  return { x, top, width: Math.max(...xs) - x, height: top - Math.min(...ys) };
}

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

function fontIsBold(page: PDFPageProxy, id: string): boolean {
  if (!page.commonObjs.has(id)) return false;
  const font = page.commonObjs.get(id) as { name?: string; bold?: boolean; black?: boolean } | undefined;
  if (!font) return false;
  const name = (font.name ?? '').replace(/^[A-Z]{6}\+/, '');
  return font.bold === true || font.black === true || BOLD_NAME.test(name);
}

/**
 * Reads what the text content does not say from a page's operator list: which fonts are bold (by
 * their names) and the raster images it paints, with their place (the current transformation matrix
 * applied to the unit square). Image masks and tiling patterns are left out.
 */
export async function readPageObjects(
  page: PDFPageProxy,
  ops: Ops,
): Promise<{ fonts: PageFonts; images: PaintedImage[] }> {
  // Annotation appearances (form fields, stamps) are not the page's content; skipping them saves work.
  const list = await page.getOperatorList({ annotationMode: ANNOTATIONS_DISABLED });
  const fonts = new Map<string, { bold: boolean }>();
  const painted: { place: Omit<PaintedImage, 'pixels'>; pixels: Promise<ImagePixels | undefined> }[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
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
      if (!fonts.has(id)) fonts.set(id, { bold: fontIsBold(page, id) });
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

import { dictionaryEntries, nameText, numberValue, refNumber, refNumbers } from './cos.ts';
import { must, UnreadableObject } from './must.ts';
import { type RawObjects, resolveDictionary } from './raw-objects.ts';

/** An image XObject a page names in its resources, with its pixel size when given directly. */
export interface RawImage {
  ref: number;
  width: number | undefined;
  height: number | undefined;
}

/** What a page's resources say it can paint, read from the file without pdf.js. */
export interface PageResources {
  /** Its content streams, in order. */
  contents: number[];
  /** The image XObjects it names itself, by resource name (`Im0`). */
  images: Map<string, RawImage>;
  /** Whether a form XObject it names may paint an image of at least the size asked for. */
  formImages: boolean;
  /** The BaseFont name of every font it and its forms offer (undefined: a font without one, as Type 3 fonts). */
  fonts: (string | undefined)[];
}

/** Page trees and nested forms deeper than this are not followed (a loop, or a hostile file). */
const MAX_DEPTH = 16;

/** Whether an image is large enough to extract; a size given by reference is not read here, so it may be. */
export function isLargeImage(image: RawImage, minSide: number): boolean {
  return (image.width ?? minSide) >= minSide && (image.height ?? minSide) >= minSide;
}

function fontNames(objects: RawObjects, resources: Map<string, string>): (string | undefined)[] {
  if (!resources.has('Font')) return [];
  const fonts = must(resolveDictionary(objects, resources.get('Font')));
  return [...dictionaryEntries(fonts).values()].map((value) => {
    const font = dictionaryEntries(must(resolveDictionary(objects, value)));
    return nameText(font.get('BaseFont'));
  });
}

interface XObjects {
  images: Map<string, RawImage>;
  forms: number[];
}

function xobjects(objects: RawObjects, resources: Map<string, string>): XObjects {
  const found: XObjects = { images: new Map(), forms: [] };
  if (!resources.has('XObject')) return found;
  const entries = dictionaryEntries(must(resolveDictionary(objects, resources.get('XObject'))));
  for (const [name, value] of entries) {
    const ref = must(refNumber(value));
    const dictionary = dictionaryEntries(must(objects.dictionary(ref)));
    const subtype = nameText(dictionary.get('Subtype'));
    if (subtype === 'Image') {
      const width = numberValue(dictionary.get('Width') ?? dictionary.get('W'));
      const height = numberValue(dictionary.get('Height') ?? dictionary.get('H'));
      found.images.set(name, { ref, width, height });
    } else if (subtype === 'Form') found.forms.push(ref);
  }
  return found;
}

/** Fonts and large images of the forms a page uses, and of the forms they use, once each. */
function readForms(
  objects: RawObjects,
  forms: readonly number[],
  minSide: number,
  seen: Set<number>,
  depth: number,
): { fonts: (string | undefined)[]; images: boolean } {
  const out = { fonts: [] as (string | undefined)[], images: false };
  for (const ref of forms) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    if (depth > MAX_DEPTH) throw new UnreadableObject();
    const form = dictionaryEntries(must(objects.dictionary(ref)));
    // A form without resources of its own uses the page's, already counted.
    if (!form.has('Resources')) continue;
    const resources = dictionaryEntries(must(resolveDictionary(objects, form.get('Resources'))));
    const inner = xobjects(objects, resources);
    const nested = readForms(objects, inner.forms, minSide, seen, depth + 1);
    out.fonts.push(...fontNames(objects, resources), ...nested.fonts);
    out.images ||= nested.images || [...inner.images.values()].some((image) => isLargeImage(image, minSide));
  }
  return out;
}

/** A page's content streams from its `/Contents`: one stream, or an array of them given directly or by reference. */
export function contentRefs(objects: RawObjects, value: string | undefined): number[] {
  if (value === undefined) return [];
  const ref = refNumber(value);
  const array =
    ref === undefined ? value : objects.value(ref)?.startsWith('[') ? objects.value(ref) : undefined;
  const refs = array === undefined ? [must(ref)] : refNumbers(array);
  if (refs.length === 0) throw new UnreadableObject();
  return refs;
}

/** A page's resources, its own or inherited from the page tree; throws `UnreadableObject` when they cannot be read. */
export function pageResources(objects: RawObjects, page: Map<string, string>): Map<string, string> {
  let node = page;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    if (node.has('Resources'))
      return dictionaryEntries(must(resolveDictionary(objects, node.get('Resources'))));
    const parent = node.get('Parent');
    // Resources are inherited from the page tree; a page with none anywhere paints nothing from them.
    if (parent === undefined) return new Map();
    node = dictionaryEntries(must(objects.dictionary(must(refNumber(parent)))));
  }
  throw new UnreadableObject();
}

/**
 * Reads a page's resources straight from the file: its content streams, the image XObjects it names,
 * whether its forms paint images of at least `minSide` pixels, and its fonts' names. Undefined when
 * any part cannot be read (compressed in an encrypted object stream, damaged, too deep): the caller
 * then asks pdf.js.
 */
export function readPageResources(
  objects: RawObjects,
  pageRef: number,
  minSide: number,
): PageResources | undefined {
  try {
    const page = dictionaryEntries(must(objects.dictionary(pageRef)));
    const contents = contentRefs(objects, page.get('Contents'));
    const resources = pageResources(objects, page);
    const own = xobjects(objects, resources);
    const forms = readForms(objects, own.forms, minSide, new Set(), 1);
    return {
      contents,
      images: own.images,
      formImages: forms.images,
      fonts: [...fontNames(objects, resources), ...forms.fonts],
    };
  } catch (error) {
    if (error instanceof UnreadableObject) return undefined;
    throw error;
  }
}

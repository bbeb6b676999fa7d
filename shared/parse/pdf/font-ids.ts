import { dictionaryEntries, nameText, refNumber } from './cos.ts';
import { isBoldFontName } from './font-names.ts';
import { must, UnreadableObject } from './must.ts';
import { contentRefs, pageResources } from './page-resources.ts';
import { type RawObjects, resolveDictionary, resolveValue } from './raw-objects.ts';

/**
 * Tells whether the fonts pdf.js names by id (`g_d0_f3`) are bold without its operator list, by
 * predicting those ids: pdf.js numbers a document's fonts in the order its content streams first
 * select them (`/F1 12 Tf`), pages in order, forms where they are painted.
 */
export interface FontIds {
  /**
   * Gives the boldness of the font ids first `used` on the next page (call for every page, in
   * order), or undefined when they cannot be told: the prediction then stops for the rest of the
   * document and the caller asks pdf.js. Pages' contents are read only when a later page needs them.
   */
  page(pageRef: number | undefined, used: readonly string[]): Map<string, boolean> | undefined;
}

/** Forms painted inside forms deeper than this are not followed. */
const MAX_DEPTH = 12;
/** A font selection (`/F1 12 Tf`) or a painted XObject (`/Fm0 Do`), in content order. */
const OPERATION = /\/([^\s/[\]()<>{}%]+)\s+(?:[-+]?(?:\d+\.?\d*|\.\d+)\s+(Tf)|(Do))(?![^\s/[\]()<>{}%])/g;
const FONT_ID = /_f(\d+)$/;

function latin1(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
}

/** Creates the font id predictor of one document, reading its objects from the file. */
export function createFontIds(objects: RawObjects): FontIds {
  const idByRef = new Map<number, number>();
  const boldById = new Map<number, boolean>();
  const descriptors = new Set<number>();
  let broken = false;

  /** A font program's descriptor: pdf.js shares one id between fonts of one descriptor, which this cannot follow. */
  function descriptorOf(font: Map<string, string>): number | undefined {
    const descendants = font.get('DescendantFonts');
    const first = descendants ? /^\[\s*(\d+\s+\d+\s+R)/.exec(must(resolveValue(objects, descendants))) : null;
    const descendant = descendants ? dictionaryEntries(must(resolveDictionary(objects, first?.[1]))) : font;
    return refNumber(descendant.get('FontDescriptor'));
  }

  function select(ref: number): void {
    if (idByRef.has(ref)) return;
    const font = dictionaryEntries(must(objects.dictionary(ref)));
    if (nameText(font.get('Subtype')) === 'Type3') throw new UnreadableObject();
    const descriptor = descriptorOf(font);
    if (descriptor !== undefined) {
      if (descriptors.has(descriptor)) throw new UnreadableObject();
      descriptors.add(descriptor);
    }
    const id = idByRef.size + 1;
    idByRef.set(ref, id);
    boldById.set(id, isBoldFontName(nameText(font.get('BaseFont')) ?? ''));
  }

  function walk(contents: readonly number[], resources: Map<string, string>, depth: number): void {
    if (depth > MAX_DEPTH) throw new UnreadableObject();
    const content = contents.map((ref) => latin1(must(objects.stream(ref)))).join('\n');
    const fonts = resources.has('Font')
      ? dictionaryEntries(must(resolveDictionary(objects, resources.get('Font'))))
      : new Map<string, string>();
    const xobjects = resources.has('XObject')
      ? dictionaryEntries(must(resolveDictionary(objects, resources.get('XObject'))))
      : new Map<string, string>();
    for (const [, name = '', tf, doOperator] of content.matchAll(OPERATION)) {
      if (tf) select(must(refNumber(must(fonts.get(name)))));
      else if (doOperator && xobjects.has(name)) {
        const ref = must(refNumber(xobjects.get(name)));
        const form = dictionaryEntries(must(objects.dictionary(ref)));
        if (nameText(form.get('Subtype')) !== 'Form') continue;
        const own = form.get('Resources');
        walk([ref], own ? dictionaryEntries(must(resolveDictionary(objects, own))) : resources, depth + 1);
      }
    }
  }

  function boldness(used: readonly string[]): Map<string, boolean> {
    const out = new Map<string, boolean>();
    for (const id of used) {
      const number = Number(FONT_ID.exec(id)?.[1]);
      out.set(id, must(boldById.get(number)));
    }
    return out;
  }

  /** Pages read since the last walk: their fonts are numbered before those of a later page. */
  const pending: (number | undefined)[] = [];

  return {
    page(pageRef, used) {
      if (broken) return undefined;
      pending.push(pageRef);
      if (used.length === 0) return new Map();
      try {
        for (const ref of pending.splice(0)) {
          const page = dictionaryEntries(must(objects.dictionary(must(ref))));
          walk(contentRefs(objects, page.get('Contents')), pageResources(objects, page), 0);
        }
        return boldness(used);
      } catch (error) {
        if (!(error instanceof UnreadableObject)) throw error;
        broken = true;
        return undefined;
      }
    },
  };
}

import { child, childrenNamed, parseXml, type XmlElement } from '../pptx/xml.ts';
import { readZipDirectory, readZipEntry } from '../zip.ts';

/** Only run properties are left out of the parts read here: styles and levels are the point. */
const SKIP: ReadonlySet<string> = new Set(['rPr']);

/** A numbering level that shows no number: format `none`, or a level text with no `%n` placeholder. */
function silent(level: XmlElement | undefined): boolean {
  if (!level) return false;
  const format = child(level, 'numFmt')?.attributes['w:val'];
  const text = child(level, 'lvlText')?.attributes['w:val'];
  return format === 'none' || (text !== undefined && !text.includes('%'));
}

function part(bytes: Uint8Array, name: string, maxBytes: number): XmlElement | undefined {
  const entry = readZipDirectory(bytes).find((e) => e.name === name);
  return entry ? parseXml(new TextDecoder().decode(readZipEntry(bytes, entry, maxBytes)), SKIP) : undefined;
}

/**
 * The paragraph styles whose automatic numbering shows no number, so that a heading of that style
 * is not given one ("1.1 Revenue" for a heading Word and LibreOffice show as "Revenue"). LibreOffice
 * links every heading style to its outline numbering, whose levels have the format `none` unless the
 * user turned chapter numbering on. Found from the levels that name their style (`w:lvl/w:pStyle`)
 * and from the styles' own numbering (`w:style/w:pPr/w:numPr`). A part that cannot be read gives
 * no style (the numbers stay as mammoth reports them).
 *
 * @example silentlyNumberedStyles(libreOfficeDocx) // Set { 'Heading1', 'Heading2', ... }
 */
export function silentlyNumberedStyles(bytes: Uint8Array, maxBytes: number): ReadonlySet<string> {
  const styles = new Set<string>();
  try {
    const numbering = part(bytes, 'word/numbering.xml', maxBytes);
    if (!numbering) return styles;
    const abstract = new Map<string, Map<string, XmlElement>>();
    for (const definition of childrenNamed(numbering, 'abstractNum')) {
      const levels = new Map<string, XmlElement>();
      for (const level of childrenNamed(definition, 'lvl')) {
        levels.set(level.attributes['w:ilvl'] ?? '0', level);
        const style = child(level, 'pStyle')?.attributes['w:val'];
        if (style && silent(level)) styles.add(style);
      }
      abstract.set(definition.attributes['w:abstractNumId'] ?? '', levels);
    }
    const nums = new Map<string, string>();
    for (const num of childrenNamed(numbering, 'num')) {
      nums.set(num.attributes['w:numId'] ?? '', child(num, 'abstractNumId')?.attributes['w:val'] ?? '');
    }
    for (const style of childrenNamed(part(bytes, 'word/styles.xml', maxBytes), 'style')) {
      const numPr = child(child(style, 'pPr'), 'numPr');
      const numId = child(numPr, 'numId')?.attributes['w:val'];
      if (numId === undefined) continue;
      const level = abstract
        .get(nums.get(numId) ?? '')
        ?.get(child(numPr, 'ilvl')?.attributes['w:val'] ?? '0');
      const id = style.attributes['w:styleId'];
      if (id && silent(level)) styles.add(id);
    }
  } catch {
    // A damaged numbering or styles part: mammoth has read (or refused) them already.
  }
  return styles;
}

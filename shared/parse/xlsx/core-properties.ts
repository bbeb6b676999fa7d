import { readZipEntry, type ZipEntry } from '../zip.ts';

/** A workbook's core properties that matter for a document (docProps/core.xml). */
export interface CoreProperties {
  title?: string;
  subject?: string;
  creator?: string;
}

const MAX_CORE_BYTES = 1 << 20;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? '';
  });
}

function elementText(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml);
  const text = match?.[1] ? decodeXml(match[1]).trim() : '';
  return text || undefined;
}

/**
 * Reads the title, subject and creator from the workbook's core properties part, if it has one.
 * The streaming workbook reader skips docProps, so the part is read from the ZIP directly.
 */
export function readCoreProperties(bytes: Uint8Array, entries: ZipEntry[]): CoreProperties {
  const entry = entries.find((e) => e.name === 'docProps/core.xml');
  if (!entry) return {};
  const xml = new TextDecoder().decode(readZipEntry(bytes, entry, MAX_CORE_BYTES));
  const properties: CoreProperties = {};
  const title = elementText(xml, 'dc:title');
  const subject = elementText(xml, 'dc:subject');
  const creator = elementText(xml, 'dc:creator');
  if (title) properties.title = title;
  if (subject) properties.subject = subject;
  if (creator) properties.creator = creator;
  return properties;
}

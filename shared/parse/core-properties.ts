import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { readZipDirectory, readZipEntry, type ZipEntry } from './zip.ts';

const MAX_CORE_BYTES = 1 << 20;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity.toLowerCase()] ?? '';
    const code =
      entity[1]?.toLowerCase() === 'x' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function element(xml: string, name: string): string | undefined {
  const match = new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:\\w+:)?${name}>`).exec(xml);
  const value = match?.[1] === undefined ? undefined : collapseSpaces(decodeXmlText(match[1]));
  return value || undefined;
}

/**
 * The title, subject, author and dates from an OOXML package's (DOCX, XLSX, PPTX) `docProps/core.xml`,
 * read with a size cap; an absent or unreadable part gives `{}` (core properties are optional).
 * Pass the archive's directory when the caller has already read it.
 */
export function readCoreProperties(bytes: Uint8Array, entries?: ZipEntry[]): Record<string, string> {
  try {
    const entry = (entries ?? readZipDirectory(bytes)).find((e) => e.name === 'docProps/core.xml');
    if (!entry) return {};
    const xml = new TextDecoder().decode(readZipEntry(bytes, entry, MAX_CORE_BYTES));
    const properties: Record<string, string> = {};
    for (const [key, name] of [
      ['title', 'title'],
      ['subject', 'subject'],
      ['author', 'creator'],
      ['created', 'created'],
      ['modified', 'modified'],
    ] as const) {
      const value = element(xml, name);
      if (value) properties[key] = value;
    }
    return properties;
  } catch {
    return {};
  }
}

import { readZipEntry, type ZipEntry } from '../zip.ts';
import { sizeText } from './size-text.ts';
import { childrenNamed, parseXml, type XmlElement } from './xml.ts';

/** One relationship of a part: its type (last segment of the type URI) and resolved target. */
export interface Relationship {
  /** `slide`, `image`, `chart`, `notesSlide`, ... */
  type: string;
  /** The target part's path in the archive, or the external address as written. */
  target: string;
  external: boolean;
}

/** Reads the parts of an Open Packaging Conventions archive (a .pptx) by name. */
export interface OpcPackage {
  has(part: string): boolean;
  bytes(part: string): Uint8Array | undefined;
  /**
   * The part parsed as XML (formatting left out unless `skip` says otherwise); undefined when it is
   * absent. Throws with the part name when malformed.
   */
  xml(part: string, skip?: ReadonlySet<string>): XmlElement | undefined;
  /** The part's relationships by id (an absent `.rels` part means none). */
  relationships(part: string): Map<string, Relationship>;
}

function decodePercent(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text; // a stray "%" is part of the name
  }
}

/** XML parts are UTF-8 or, as OPC allows, UTF-16 with a byte-order mark. */
function decodeXml(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data);
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data);
  return new TextDecoder('utf-8').decode(data);
}

function folderOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return slash < 0 ? '' : part.slice(0, slash);
}

/**
 * A relationship target as an archive path: absolute targets (`/ppt/charts/chart1.xml`, as some
 * writers use) from the root, relative ones from the source part's folder, `..` folded.
 */
export function resolveTarget(source: string, target: string): string {
  const base = target.startsWith('/') ? [] : folderOf(source).split('/');
  const parts = base.filter((segment) => segment !== '');
  for (const segment of decodePercent(target).replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/');
}

/** Part names match case-insensitively (OPC); some Windows zippers write `\` between folders. */
function partKey(name: string): string {
  return name.replaceAll('\\', '/').toLowerCase();
}

function relationshipsPart(part: string): string {
  const folder = folderOf(part);
  const name = part.slice(folder.length + (folder ? 1 : 0));
  return `${folder ? `${folder}/` : ''}_rels/${name}.rels`;
}

/**
 * Opens the parts of an archive whose directory has been read (and checked against the archive
 * limits). Each part is inflated at most to the size the directory declares, so a lying entry fails
 * instead of expanding, and the XML read in all adds up to at most `maxXmlBytes`: a crafted deck
 * whose thousands of slides all point to one large slide or notes part fails instead of reading it
 * thousands of times.
 */
export function openPackage(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  maxXmlBytes: number,
): OpcPackage {
  const byName = new Map(entries.map((entry) => [partKey(entry.name), entry]));
  const relationshipCache = new Map<string, Map<string, Relationship>>();
  let xmlBytes = 0;

  const read = (part: string): Uint8Array | undefined => {
    const entry = byName.get(partKey(part));
    return entry ? readZipEntry(bytes, entry, entry.uncompressedSize) : undefined;
  };

  const xml = (part: string, skip?: ReadonlySet<string>): XmlElement | undefined => {
    const data = read(part);
    if (!data) return undefined;
    xmlBytes += data.length;
    if (xmlBytes > maxXmlBytes) {
      throw new Error(
        `its parts add up to more than ${sizeText(maxXmlBytes)} of XML when read (limits.maxUncompressedBytes)`,
      );
    }
    try {
      return parseXml(decodeXml(data), skip);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`${part} is not well-formed XML (${detail})`, { cause: error });
    }
  };

  const relationships = (part: string): Map<string, Relationship> => {
    const cached = relationshipCache.get(part);
    if (cached) return cached;
    const found = new Map<string, Relationship>();
    for (const rel of childrenNamed(xml(relationshipsPart(part)), 'Relationship')) {
      const { Id: id, Type: type = '', Target: target = '', TargetMode: mode } = rel.attributes;
      if (!id) continue;
      const external = mode === 'External';
      found.set(id, {
        type: type.slice(type.lastIndexOf('/') + 1),
        target: external ? target : resolveTarget(part, target),
        external,
      });
    }
    relationshipCache.set(part, found);
    return found;
  };

  return { has: (part) => byName.has(partKey(part)), bytes: read, xml, relationships };
}

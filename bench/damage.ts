/**
 * Damaged copies of a document, made the ways files really break: cut short (an interrupted download
 * or copy), bytes flipped (a bad disk or transfer), a run zeroed; for ZIP packages (OOXML,
 * OpenDocument) an entry removed (its name garbled in both headers), an entry's data garbled and the
 * central directory lost; for OLE compound files (legacy Office) the header's sector size, the first
 * FAT sector and the first directory sector garbled. Deterministic: the same file always gives the
 * same variants (a seeded generator), so a failure can be replayed.
 */

/** A damaged copy: its file name (`<stem>.<how>.<ext>`) and bytes. */
export interface Variant {
  name: string;
  bytes: Uint8Array;
}

/** A small deterministic generator (mulberry32) seeded from the file name and size. */
function generator(seedText: string): () => number {
  let seed = 2166136261;
  for (const char of seedText) seed = Math.imul(seed ^ char.charCodeAt(0), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function renamed(name: string, how: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}.${how}${name.slice(dot)}` : `${name}.${how}`;
}

function edited(bytes: Uint8Array, edit: (copy: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  edit(copy);
  return copy;
}

const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
const isOle = (bytes: Uint8Array) =>
  bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;

/** The parts whose loss or damage hurts most: the document body, the deck, the workbook, ODF content. */
const MAIN_PARTS =
  /^(?:word\/document\.xml|ppt\/presentation\.xml|ppt\/slides\/slide1\.xml|xl\/workbook\.xml|xl\/worksheets\/sheet1\.xml|xl\/sharedStrings\.xml|content\.xml|\[Content_Types\]\.xml)$/;

interface CentralEntry {
  name: string;
  /** Where the name starts in the central directory and in the local header. */
  centralName: number;
  localName: number;
  dataStart: number;
  compressedSize: number;
}

/** The central directory's entries, read leniently (undefined for an archive this cannot walk). */
function centralEntries(bytes: Uint8Array): CentralEntry[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let end = bytes.length - 22; end >= Math.max(0, bytes.length - 22 - 0xffff); end--) {
    if (view.getUint32(end, true) !== 0x06054b50) continue;
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    const entries: CentralEntry[] = [];
    for (let i = 0; i < count && at + 46 <= bytes.length; i++) {
      if (view.getUint32(at, true) !== 0x02014b50) return undefined;
      const nameLength = view.getUint16(at + 28, true);
      const local = view.getUint32(at + 42, true);
      if (local + 30 > bytes.length) return undefined;
      const localNameLength = view.getUint16(local + 26, true);
      const localExtra = view.getUint16(local + 28, true);
      entries.push({
        name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
        centralName: at + 46,
        localName: local + 30,
        dataStart: local + 30 + localNameLength + localExtra,
        compressedSize: view.getUint32(at + 20, true),
      });
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return entries;
  }
  return undefined;
}

function zipVariants(name: string, bytes: Uint8Array, random: () => number): Variant[] {
  const entries = centralEntries(bytes);
  if (!entries) return [];
  const out: Variant[] = [];
  for (const entry of entries.filter((e) => MAIN_PARTS.test(e.name))) {
    const label = entry.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
    out.push({
      name: renamed(name, `without-${label}`),
      // Same length, so every offset still holds: the part is simply not there under its name.
      bytes: edited(bytes, (copy) => {
        for (const start of [entry.centralName, entry.localName]) {
          for (let i = 0; i < entry.name.length; i++) copy[start + i] = 0x78; // 'x'
        }
      }),
    });
    out.push({
      name: renamed(name, `garbled-${label}`),
      bytes: edited(bytes, (copy) => {
        const end = Math.min(entry.dataStart + entry.compressedSize, copy.length);
        for (let i = entry.dataStart + Math.floor((end - entry.dataStart) / 4); i < end; i++) {
          copy[i] = Math.floor(random() * 256);
        }
      }),
    });
  }
  out.push({
    name: renamed(name, 'no-central-directory'),
    bytes: edited(bytes, (copy) => {
      for (let at = copy.length - 22; at >= 0; at--) {
        if (copy[at] === 0x50 && copy[at + 1] === 0x4b && copy[at + 2] === 5 && copy[at + 3] === 6) {
          copy.fill(0, at, at + 4);
          break;
        }
      }
    }),
  });
  return out;
}

function oleVariants(name: string, bytes: Uint8Array, random: () => number): Variant[] {
  if (bytes.length < 512) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorSize = 1 << view.getUint16(0x1e, true);
  if (sectorSize !== 512 && sectorSize !== 4096) return [];
  const sector = (n: number) => 512 + n * sectorSize;
  const garble = (start: number) => (copy: Uint8Array) => {
    for (let i = start; i < Math.min(start + sectorSize, copy.length); i++)
      copy[i] = Math.floor(random() * 256);
  };
  return [
    { name: renamed(name, 'bad-sector-size'), bytes: edited(bytes, (copy) => copy.set([0x30, 0], 0x1e)) },
    { name: renamed(name, 'garbled-fat'), bytes: edited(bytes, garble(sector(view.getUint32(0x4c, true)))) },
    {
      name: renamed(name, 'garbled-directory'),
      bytes: edited(bytes, garble(sector(view.getUint32(0x30, true)))),
    },
  ];
}

/**
 * The damaged variants of one file: truncated at 10%, 50% and 90% and to its first 100 bytes, 32
 * bytes flipped past the header, a 4 KB run zeroed in the middle, plus the container's own breakages
 * (ZIP or OLE, by signature).
 *
 * @example damagedVariants('a.docx', bytes).map((v) => v.name) // ['a.cut-10.docx', ..., 'a.without-word-document-xml.docx', ...]
 */
export function damagedVariants(name: string, bytes: Uint8Array): Variant[] {
  const random = generator(`${name}:${bytes.length}`);
  const out: Variant[] = [10, 50, 90].map((percent) => ({
    name: renamed(name, `cut-${percent}`),
    bytes: bytes.slice(0, Math.floor((bytes.length * percent) / 100)),
  }));
  out.push({ name: renamed(name, 'cut-100-bytes'), bytes: bytes.slice(0, 100) });
  out.push({
    name: renamed(name, 'flipped'),
    bytes: edited(bytes, (copy) => {
      if (copy.length <= 600) return;
      for (let i = 0; i < 32; i++) {
        const at = 512 + Math.floor(random() * (copy.length - 512));
        copy[at] = (copy[at] ?? 0) ^ (1 + Math.floor(random() * 255));
      }
    }),
  });
  out.push({
    name: renamed(name, 'zeroed'),
    bytes: edited(bytes, (copy) =>
      copy.fill(0, Math.floor(copy.length / 2), Math.floor(copy.length / 2) + 4096),
    ),
  });
  if (isZip(bytes)) out.push(...zipVariants(name, bytes, random));
  if (isOle(bytes)) out.push(...oleVariants(name, bytes, random));
  return out;
}

/**
 * What is wrong with a failure's reason, if anything: it must be a sentence a person can act on, not
 * a stack trace, not a programming error's message ("Cannot read properties of undefined"), not
 * "undefined" or "[object Object]", and it must name the file.
 */
export function unreadableReason(filename: string, reason: string | null | undefined): string | undefined {
  if (!reason?.trim()) return 'no reason given';
  if (/\n\s+at\s/.test(reason)) return 'a stack trace';
  if (/\bundefined\b|\bnull\b|\bNaN\b|\[object \w+\]/.test(reason)) return 'undefined, null or an object';
  if (/is not a function|is not iterable|Cannot (?:read|set) propert|Maximum call stack/i.test(reason)) {
    return 'a programming error';
  }
  if (!reason.includes(filename)) return 'the file is not named';
  return undefined;
}

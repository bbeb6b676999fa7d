/** Sector numbers at or above this are markers (free, end of chain, FAT, DIFAT), not sectors. */
const MAX_SECTOR = 0xfffffffa;

/** Whether following `next` from some entry comes back to an entry already on that walk. */
function hasCycle(next: Uint32Array): boolean {
  /** 0 unvisited, 1 on the current walk, 2 known to end. */
  const state = new Uint8Array(next.length);
  for (let start = 0; start < next.length; start++) {
    let at = start;
    const walk: number[] = [];
    while (at < next.length && state[at] === 0) {
      state[at] = 1;
      walk.push(at);
      const to = next[at] ?? MAX_SECTOR;
      at = to > MAX_SECTOR ? next.length : to;
    }
    if (at < next.length && state[at] === 1) return true;
    for (const visited of walk) state[visited] = 2;
  }
  return false;
}

/** The sectors of a chain in `fat` from `start`, at most `limit` of them. */
function chain(fat: Uint32Array, start: number, limit: number): number[] {
  const out: number[] = [];
  for (let at = start; at < fat.length && out.length < limit; at = fat[at] ?? MAX_SECTOR + 1) out.push(at);
  return out;
}

/**
 * Which allocation table of an OLE compound file has a sector chain that loops back on itself
 * (`'FAT'`, `'mini FAT'`), if any. A reader that follows such a chain without remembering where it
 * has been grows its list of sectors until the process dies (word-extractor does, with a fatal
 * "invalid size error" that no `try` catches), so a looping file is refused before it is read.
 * Reads the header, the DIFAT (its 109 header entries and its own sectors) and the FAT's and the
 * mini FAT's sectors; malformed headers are left to the container reader.
 *
 * @example loopingAllocationTable(damagedDocBytes) // 'FAT'
 */
export function loopingAllocationTable(bytes: Uint8Array): 'FAT' | 'mini FAT' | undefined {
  if (bytes.length < 512) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shift = view.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return undefined;
  const size = 1 << shift;
  const perSector = size / 4;
  const sectors = Math.floor((bytes.length - 512) / size);
  const offset = (sector: number) => 512 + sector * size;
  const words = (sector: number): number[] => {
    if (sector >= sectors) return [];
    return Array.from({ length: perSector }, (_, i) => view.getUint32(offset(sector) + i * 4, true));
  };
  // The FAT's own sectors: 109 in the header, the rest in DIFAT sectors (the last word of each links on).
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(view.getUint32(0x4c + i * 4, true));
  const seenDifat = new Set<number>();
  for (let at = view.getUint32(0x44, true); at < sectors && !seenDifat.has(at); ) {
    seenDifat.add(at);
    const entries = words(at);
    fatSectors.push(...entries.slice(0, -1));
    at = entries.at(-1) ?? MAX_SECTOR + 1;
  }
  const fat = new Uint32Array(
    fatSectors
      .filter((sector) => sector < sectors)
      .flatMap((sector) => words(sector))
      .slice(0, sectors),
  );
  if (hasCycle(fat)) return 'FAT';
  const miniFatSectors = chain(fat, view.getUint32(0x3c, true), sectors);
  const miniFat = new Uint32Array(miniFatSectors.flatMap((sector) => words(sector)));
  return hasCycle(miniFat) ? 'mini FAT' : undefined;
}

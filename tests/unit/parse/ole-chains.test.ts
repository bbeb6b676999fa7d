import { readFileSync } from 'node:fs';
import CFB from 'cfb';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { loopingAllocationTable } from '#shared/parse/ole-chains.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../fixtures/legacy/${name}`, import.meta.url)));

/** The .doc with the FAT entry of its WordDocument stream's second sector pointing back to its first. */
function loopedDoc(): Uint8Array {
  const bytes = fixture('handbook.doc');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const container = CFB.read(Buffer.from(bytes), { type: 'buffer' });
  const start = container.FileIndex.find((entry) => entry.name === 'WordDocument')?.start;
  if (start === undefined) throw new Error('the fixture has no WordDocument stream');
  const fatSector = view.getUint32(0x4c, true);
  const entry = (sector: number) => 512 + fatSector * 512 + sector * 4;
  const second = view.getUint32(entry(start), true);
  expect(second).toBeLessThan(128); // both entries sit in the first FAT sector
  view.setUint32(entry(second), start, true);
  return bytes;
}

describe('OLE sector chains', () => {
  it('finds no loop in intact legacy files', () => {
    for (const name of ['handbook.doc', 'budget.xls', 'review.ppt']) {
      expect(loopingAllocationTable(fixture(name))).toBeUndefined();
    }
  });

  it('refuses a .doc whose FAT chain loops with a reason, where word-extractor would kill the process', async () => {
    const bytes = loopedDoc();
    expect(loopingAllocationTable(bytes)).toBe('FAT');
    // Without the check word-extractor follows the chain forever and V8 aborts ("invalid size error").
    // Type detection opens the container already, so it is the first to refuse.
    const parse = async () =>
      parseDocument({ bytes, filename: 'loop.doc' }, detectFileType(bytes, 'loop.doc'));
    await expect(parse()).rejects.toThrow(
      /^loop\.doc is damaged: its OLE container is truncated or corrupted, so it is not a valid Word 97-2003 document \(a sector chain of its FAT loops back on itself\); open it/,
    );
  });
});

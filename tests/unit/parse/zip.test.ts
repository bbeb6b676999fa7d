import { describe, expect, it } from 'vitest';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';
import { zipBytes } from './fixtures.ts';

describe('readZipDirectory', () => {
  it('lists entries with their declared sizes from the central directory', () => {
    const zip = zipBytes([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/文档.xml', data: 'x'.repeat(1000), deflate: true },
    ]);
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
      ['[Content_Types].xml', 0, 8],
      ['word/文档.xml', 8, 1000],
    ]);
    expect(entries[1]?.compressedSize).toBeLessThan(100);
  });

  it('throws on bytes that are not a ZIP archive', () => {
    expect(() => readZipDirectory(new Uint8Array(64))).toThrow(
      'the ZIP archive is damaged (no end of central directory)',
    );
  });
});

describe('readZipEntry', () => {
  it('inflates an entry', () => {
    const zip = zipBytes([{ name: 'a.xml', data: '<a>hello</a>', deflate: true }]);
    const [entry] = readZipDirectory(zip);
    if (!entry) throw new Error('no entry');
    expect(new TextDecoder().decode(readZipEntry(zip, entry, 1000))).toBe('<a>hello</a>');
  });

  it('refuses to inflate past the byte limit whatever the directory claims', () => {
    const zip = zipBytes([{ name: 'bomb.xml', data: '0'.repeat(100_000), deflate: true }]);
    const [entry] = readZipDirectory(zip);
    if (!entry) throw new Error('no entry');
    expect(() => readZipEntry(zip, { ...entry, uncompressedSize: 10 }, 1000)).toThrow(
      'could not be inflated',
    );
  });
});

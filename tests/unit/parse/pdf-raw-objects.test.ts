import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { paintedImages } from '#shared/parse/pdf/content-images.ts';
import { dictionaryEntries, refNumber } from '#shared/parse/pdf/cos.ts';
import { readPageResources } from '#shared/parse/pdf/page-resources.ts';
import { readRawObjects } from '#shared/parse/pdf/raw-objects.ts';
import { rawPdf } from './pdf-fixtures.ts';

/** A stream object body whose data is deflated. */
function flate(dictionary: string, data: string): string {
  const packed = deflateSync(Buffer.from(data, 'latin1'));
  return `<< ${dictionary} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n${packed.toString('latin1')}\nendstream`;
}

/** An object stream holding `objects` (number -> body). */
function objectStream(objects: Record<number, string>): string {
  let header = '';
  let bodies = '';
  for (const [num, body] of Object.entries(objects)) {
    header += `${num} ${bodies.length} `;
    bodies += `${body}\n`;
  }
  return flate(`/Type /ObjStm /N ${Object.keys(objects).length} /First ${header.length}`, header + bodies);
}

const IMAGE = (size: number) =>
  `<< /Type /XObject /Subtype /Image /Width ${size} /Height ${size} /Length 0 >>\nstream\n\nendstream`;

describe('readRawObjects', () => {
  it('reads plain dictionaries, compressed ones from object streams, and inflated stream data', () => {
    const objects = readRawObjects(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
        objectStream({ 5: '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>' }),
        flate('', 'BT /F1 12 Tf (Hello) Tj ET'),
      ]),
    );
    expect(objects.dictionary(2)).toBe('<< /Type /Pages /Kids [5 0 R] /Count 1 >>');
    expect(dictionaryEntries(objects.dictionary(5) ?? '').get('Contents')).toBe('4 0 R');
    expect(Buffer.from(objects.stream(4) ?? []).toString('latin1')).toBe('BT /F1 12 Tf (Hello) Tj ET');
    expect(objects.dictionary(9)).toBeUndefined();
  });
});

describe('dictionaryEntries', () => {
  it('gives top-level values only, skipping nested dictionaries, arrays and strings', () => {
    const entries = dictionaryEntries(
      '<< /A << /XObject 5 0 R >> /B [1 (>>) 2] /C (a \\) b) /XObject 7 0 R /D /Name >>',
    );
    expect([...entries.keys()]).toEqual(['A', 'B', 'C', 'XObject', 'D']);
    expect(refNumber(entries.get('XObject'))).toBe(7);
    expect(entries.get('B')).toBe('[1 (>>) 2]');
  });
});

describe('readPageResources', () => {
  const pdf = rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources 4 0 R >>',
    '<< /Type /Page /Parent 2 0 R /Contents 9 0 R >>',
    '<< /Font << /F1 5 0 R >> /XObject << /Im0 6 0 R /Dot 7 0 R /Fm0 8 0 R >> >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Sans-Bold >>',
    IMAGE(300),
    IMAGE(8),
    `<< /Type /XObject /Subtype /Form /Resources << /XObject << /Im1 10 0 R >> >> /Length 0 >>\nstream\n\nendstream`,
    flate('', '/Im0 Do'),
    IMAGE(64),
  ]);

  it('reads inherited resources: fonts, images with their sizes, and images inside forms', () => {
    const resources = readPageResources(readRawObjects(pdf), 3, 32);
    expect(resources?.contents).toEqual([9]);
    expect(resources?.fonts).toEqual(['ABCDEF+Sans-Bold']);
    expect([...(resources?.images ?? [])]).toEqual([
      ['Im0', { ref: 6, width: 300, height: 300 }],
      ['Dot', { ref: 7, width: 8, height: 8 }],
    ]);
    expect(resources?.formImages).toBe(true);
  });

  it('gives nothing when an object it needs is missing', () => {
    const broken = rawPdf([
      '<< /Type /Catalog >>',
      '<< /Type /Page /Resources << /XObject << /Im0 9 0 R >> >> >>',
    ]);
    expect(readPageResources(readRawObjects(broken), 2, 32)).toBeUndefined();
  });
});

describe('paintedImages', () => {
  it('places named images by the transformation in force, restoring it after Q', () => {
    const content = [
      'q 200 0 0 100 72 500 cm /Im0 Do Q',
      'BT (not an image: /Im0 Do) Tj ET',
      'q 1 0 0 1 50 50 cm q 10 0 0 20 0 0 cm /Im1 Do Q /Im0 Do Q',
      'BI /W 2 /H 1 /BPC 8 /CS /G ID \x00Do EI',
      '/Other Do',
    ].join('\n');
    expect(paintedImages(content, new Set(['Im0', 'Im1']))).toEqual([
      { name: 'Im0', x: 72, top: 600, width: 200, height: 100 },
      { name: 'Im1', x: 50, top: 70, width: 10, height: 20 },
      { name: 'Im0', x: 50, top: 51, width: 1, height: 1 },
    ]);
  });
});

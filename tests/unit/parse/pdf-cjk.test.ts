import { describe, expect, it } from 'vitest';
import { parsePdf } from '#shared/parse/pdf/index.ts';
import { outline, rawPdf } from './pdf-fixtures.ts';

/** Text as the big-endian UCS-2 hex string the UniGB-UCS2-H CMap reads. */
function ucs2(text: string): string {
  return [...text].map((char) => (char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')).join('');
}

/**
 * A PDF in Chinese with a non-embedded Adobe-GB1 font (STSong-Light, as Acrobat writes it): its text
 * only comes out when pdf.js finds the predefined CMaps on disk.
 */
function chinesePdf(): Uint8Array {
  const lines: [number, number, string][] = [
    [18, 720, '第一章 概述'],
    [12, 690, '本章介绍系统的目标。'],
    [18, 650, '第二章 方法'],
    [12, 620, '本章说明使用的方法。'],
  ];
  const content = lines
    .map(([size, y, text]) => `BT /F1 ${size} Tf 72 ${y} Td <${ucs2(text)}> Tj ET`)
    .join('\n');
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 80 >>',
  ]);
}

describe('parsePdf Chinese text', () => {
  it('extracts CJK text through the packaged CMaps and finds chapter headings', async () => {
    const parsed = await parsePdf({ bytes: chinesePdf(), filename: '系统.pdf' });
    expect(outline(parsed.children)).toEqual([
      ['第一章 概述', ['paragraph:本章介绍系统的目标。']],
      ['第二章 方法', ['paragraph:本章说明使用的方法。']],
    ]);
    expect(parsed.title).toBe('系统');
  });
});

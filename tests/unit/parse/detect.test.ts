import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { decodeText, detectFileType } from '#shared/parse/detect.ts';
import { READABLE_TYPES, readableTypesSentence } from '#shared/parse/file-types.ts';
import { parsers } from '#shared/parse/registry.ts';
import { pngBytes, utf8, zipBytes } from './fixtures.ts';

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

function utf16(text: string, order: 'le' | 'be'): Uint8Array {
  const out = [order === 'le' ? 0xff : 0xfe, order === 'le' ? 0xfe : 0xff];
  for (const unit of Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))) {
    const hi = unit >> 8;
    const lo = unit & 0xff;
    out.push(...(order === 'le' ? [lo, hi] : [hi, lo]));
  }
  return new Uint8Array(out);
}

function reasonFor(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    return (error as Error).message;
  }
  throw new Error('expected an UnsupportedDocumentError');
}

describe('detectFileType', () => {
  it('returns md for text named .md', () => {
    expect(detectFileType(utf8('just some words'), 'notes.md')).toBe('md');
  });

  it('returns txt for plain text under another name', () => {
    expect(detectFileType(utf8('Dear team,\n\nthe meeting moved to 3 pm.\n- Ann'), 'letter.txt')).toBe('txt');
  });

  it('returns md when unnamed text has Markdown headings', () => {
    expect(detectFileType(utf8('# Plan\n\nSome text.\n'), 'upload')).toBe('md');
  });

  it('returns md when text has a pipe table', () => {
    expect(detectFileType(utf8('| a | b |\n|---|---|\n| 1 | 2 |\n'), 'data.txt')).toBe('md');
  });

  it('throws "the file is empty" for zero bytes', () => {
    expect(reasonFor(() => detectFileType(new Uint8Array(), 'a.md'))).toContain('the file is empty');
  });

  it('throws for a file of only whitespace', () => {
    expect(reasonFor(() => detectFileType(utf8(' \n\n\t'), 'a.md'))).toContain('the file is empty');
  });

  it('names the image when a PNG is named .md', () => {
    expect(reasonFor(() => detectFileType(pngBytes(4, 4), 'notes.md'))).toBe(
      'notes.md is named .md but contains binary data (looks like a PNG image)',
    );
  });

  it('reads a picture under its own name, or none, as an image document (a scan, a photo)', () => {
    expect(detectFileType(pngBytes(4, 4), 'scan.png')).toBe('image');
    expect(detectFileType(pngBytes(4, 4), 'scan')).toBe('image');
  });

  it('refuses an image format it cannot read as not a document', () => {
    const ico = new Uint8Array([0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x10, 0x10]);
    expect(reasonFor(() => detectFileType(ico, 'favicon.ico'))).toBe(
      `favicon.ico is an ICO image, which is not a supported document type; ${readableTypesSentence()}`,
    );
  });

  it('refuses unknown binary data with NUL bytes', () => {
    const bytes = new Uint8Array([0x10, 0x00, 0x22, 0x01, 0x00, 0x7f, 0x41]);
    expect(reasonFor(() => detectFileType(bytes, 'x.txt'))).toBe(
      'x.txt is named .txt but contains binary data',
    );
  });

  it('says which types it reads when neither the name nor the bytes name one it reads', () => {
    const bytes = new Uint8Array([0x10, 0x00, 0x22, 0x01, 0x00, 0x7f, 0x41]);
    expect(reasonFor(() => detectFileType(bytes, 'mystery.bin'))).toBe(
      `mystery.bin is binary data of a type DropQA does not read (.bin); ${readableTypesSentence()}`,
    );
    expect(reasonFor(() => detectFileType(bytes, 'noextension'))).toBe(
      `noextension is binary data of a type DropQA does not read; ${readableTypesSentence()}`,
    );
  });

  it('gives the offset of the first invalid UTF-8 byte', () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]); // "café ok" in Latin-1
    expect(reasonFor(() => detectFileType(latin1, 'menu.md'))).toBe(
      'menu.md is not valid UTF-8 text (invalid byte at offset 3)',
    );
  });

  it('reads GBK bytes as not UTF-8 rather than guessing', () => {
    const gbk = new Uint8Array([0x41, 0xd6, 0xd0, 0xce, 0xc4]); // "A中文" in GBK
    expect(reasonFor(() => detectFileType(gbk, 'zh.txt'))).toContain('invalid byte at offset 1');
  });

  it('accepts UTF-8 with a BOM', () => {
    expect(detectFileType(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('# 标题')]), 'a.md')).toBe('md');
  });

  it('accepts UTF-16 LE and BE with a BOM', () => {
    expect(detectFileType(utf16('# 标题\n\n正文', 'le'), 'a.md')).toBe('md');
    expect(detectFileType(utf16('plain words', 'be'), 'a.txt')).toBe('txt');
  });

  it('returns pdf for %PDF- whatever the name', () => {
    expect(detectFileType(utf8('%PDF-1.7\n%âãÏÓ\n'), 'report.md')).toBe('pdf');
  });

  it('tells docx, pptx and xlsx apart by their main part', () => {
    const office = (part: string) =>
      zipBytes([
        { name: '[Content_Types].xml', data: CONTENT_TYPES },
        { name: part, data: '<x/>' },
      ]);
    expect(detectFileType(office('word/document.xml'), 'a.bin')).toBe('docx');
    expect(detectFileType(office('ppt/presentation.xml'), 'a.bin')).toBe('pptx');
    expect(detectFileType(office('xl/workbook.xml'), 'a.bin')).toBe('xlsx');
  });

  it('falls back to the content types when the main part has another name', () => {
    const types =
      '<Types><Override PartName="/custom/main.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
    const zip = zipBytes([
      { name: '[Content_Types].xml', data: types, deflate: true },
      { name: 'custom/main.xml', data: '<w:document/>', deflate: true },
    ]);
    expect(detectFileType(zip, 'renamed.zip')).toBe('docx');
  });

  it('refuses a ZIP that is not an Office document', () => {
    const zip = zipBytes([{ name: 'readme.txt', data: 'hello' }]);
    expect(reasonFor(() => detectFileType(zip, 'a.zip'))).toBe(
      `a.zip is a ZIP archive, not a Word, PowerPoint or Excel document; ${readableTypesSentence()}`,
    );
  });

  it('calls a ZIP of Office parts without its content types or main part damaged, naming what is missing', () => {
    // As exceljs's test file missing-bits.xlsx: a sheet and the workbook's relationships, nothing else.
    const zip = zipBytes([
      { name: 'xl/_rels/workbook.xml.rels', data: '<Relationships/>', deflate: true },
      { name: 'xl/worksheets/sheet1.xml', data: '<worksheet/>', deflate: true },
    ]);
    expect(reasonFor(() => detectFileType(zip, 'missing-bits.xlsx'))).toBe(
      'missing-bits.xlsx is damaged: it holds parts of an Excel workbook (xl/...) but not [Content_Types].xml or xl/workbook.xml, which every Excel workbook has; open it in the program that made it and save it again (or export it anew), or upload an intact copy',
    );
    const deck = zipBytes([
      { name: '[Content_Types].xml', data: '<Types/>', deflate: true },
      { name: 'ppt/slides/slide1.xml', data: '<p:sld/>', deflate: true },
    ]);
    expect(reasonFor(() => detectFileType(deck, 'deck.pptx'))).toMatch(
      /^deck\.pptx is damaged: it holds parts of a PowerPoint presentation \(ppt\/\.\.\.\) but not ppt\/presentation\.xml, which/,
    );
  });

  it('calls an EPUB an e-book, not a ZIP archive, when refusing it', () => {
    const epub = zipBytes([
      { name: 'mimetype', data: 'application/epub+zip' },
      { name: 'META-INF/container.xml', data: '<container/>', deflate: true },
    ]);
    expect(reasonFor(() => detectFileType(epub, 'novel.epub'))).toBe(
      `novel.epub is an EPUB e-book; EPUB e-books are not supported; ${readableTypesSentence()}`,
    );
  });

  it('refuses a truncated ZIP as damaged', () => {
    const zip = zipBytes([{ name: '[Content_Types].xml', data: CONTENT_TYPES }]);
    expect(reasonFor(() => detectFileType(zip.subarray(0, 40), 'a.docx'))).toBe(
      'a.docx is damaged: its ZIP archive is truncated or corrupted, so it is not a valid Word document (no end of central directory); open it in the program that made it and save it again (or export it anew), or upload an intact copy',
    );
  });

  it('tells Word, Excel and PowerPoint 97-2003 files apart by their OLE streams, whatever their name', () => {
    const fixtures = join(import.meta.dirname, '../../fixtures/legacy');
    for (const [file, type] of [
      ['handbook.doc', 'doc'],
      ['budget.xls', 'xls'],
      ['review.ppt', 'ppt'],
    ] as const) {
      const bytes = new Uint8Array(readFileSync(join(fixtures, file)));
      expect(detectFileType(bytes, file)).toBe(type);
      expect(detectFileType(bytes, 'renamed.bin')).toBe(type);
    }
  });

  it('refuses a damaged OLE file with the reason', () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    expect(reasonFor(() => detectFileType(ole, 'old.doc'))).toMatch(
      /^old\.doc is damaged: its OLE container is truncated or corrupted, so it is not a valid Word 97-2003 document \(.*\); open it in the program that made it and save it again/,
    );
  });

  it('says a password-protected Office document is password-protected', () => {
    const encrypted = new Uint8Array(2048);
    encrypted.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    encrypted.set(Buffer.from('EncryptedPackage', 'utf16le'), 1024);
    expect(reasonFor(() => detectFileType(encrypted, 'secret.xlsx'))).toBe(
      'secret.xlsx is password-protected (an encrypted Office document); save it without a password',
    );
  });
});

describe('readableTypesSentence', () => {
  it('lists only types that have a parser', () => {
    for (const readable of READABLE_TYPES) expect(parsers[readable.type], readable.type).toBeDefined();
  });

  it('lists the usual extension of every type with a parser', () => {
    expect(readableTypesSentence()).toMatch(
      /^DropQA reads \.md, \.txt, \.pdf, \.docx, \.doc, .*\.xls, .* and \.\w+ files$/,
    );
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 BOM', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toBe('hi');
  });

  it('decodes UTF-16 LE with a BOM, Chinese included', () => {
    expect(decodeText(utf16('预算500万', 'le'))).toBe('预算500万');
  });

  it('refuses overlong encodings and encoded surrogates', () => {
    expect(reasonFor(() => decodeText(new Uint8Array([0x41, 0xc0, 0x80])))).toContain('offset 1');
    expect(reasonFor(() => decodeText(new Uint8Array([0xed, 0xa0, 0x80])))).toContain('offset 0');
  });

  it('refuses a sequence cut off at the end', () => {
    const cut = utf8('ab中').subarray(0, 4);
    expect(reasonFor(() => decodeText(cut, 'a.md'))).toBe(
      'a.md is not valid UTF-8 text (invalid byte at offset 2)',
    );
  });

  it('refuses UTF-16 with an odd number of bytes', () => {
    expect(reasonFor(() => decodeText(new Uint8Array([0xff, 0xfe, 0x41])))).toContain('not valid UTF-16');
  });
});

import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readImageInfo } from '#shared/parse/image-info.ts';
import { parsePdf } from '#shared/parse/pdf/index.ts';
import { encodePng, PIXEL_KIND } from '#shared/parse/pdf/png.ts';
import { body, heading, outline, pdfBytes } from './pdf-fixtures.ts';

function gradient(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set([x * 4, y * 5, 200], (y * width + x) * 3);
  }
  return pixels;
}

/** The raw rows of an unfiltered 8-bit PNG written by `encodePng`. */
function pngPixels(png: Uint8Array, rowBytes: number): Uint8Array {
  const idat = Buffer.from(png.subarray(33));
  const raw = inflateSync(idat.subarray(8, 8 + idat.readUInt32BE(0)));
  const rows = raw.length / (rowBytes + 1);
  const out = new Uint8Array(rows * rowBytes);
  for (let row = 0; row < rows; row++)
    out.set(raw.subarray(row * (rowBytes + 1) + 1, (row + 1) * (rowBytes + 1)), row * rowBytes);
  return out;
}

/** A valid 32 x 32 gray baseline JPEG, written by hand: every block is flat mid-gray. */
function grayJpeg(): Buffer {
  const huffman = (tableClass: number) => [0xff, 0xc4, 0x00, 0x14, tableClass, 1, ...Array(15).fill(0), 0x00];
  return Buffer.from([
    ...[0xff, 0xd8],
    ...[0xff, 0xdb, 0x00, 0x43, 0x00, ...Array(64).fill(1)],
    ...[0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x20, 0x00, 0x20, 0x01, 0x01, 0x11, 0x00],
    ...huffman(0x00),
    ...huffman(0x10),
    ...[0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00],
    ...[0x00, 0x00, 0x00, 0x00],
    ...[0xff, 0xd9],
  ]);
}

describe('parsePdf images', () => {
  it('keeps a JPEG stored in the PDF as the original file', async () => {
    const jpeg = grayJpeg();
    const bytes = await pdfBytes((doc) => {
      doc.image(jpeg, { width: 64 });
      body(doc, 'A photo above.');
    });
    const parsed = await parsePdf({ bytes, filename: 'photo.pdf' });
    expect(outline(parsed.children)).toEqual(['image:img_001.jpg', 'paragraph:A photo above.']);
    expect(parsed.images[0]).toMatchObject({
      name: 'img_001.jpg',
      mime: 'image/jpeg',
      width: 32,
      height: 32,
    });
    expect(Buffer.from(parsed.images[0]?.bytes ?? [])).toEqual(jpeg);
  });

  it('places a stored JPEG of a later page between its paragraphs, kept as the original file', async () => {
    const jpeg = grayJpeg();
    const bytes = await pdfBytes((doc) => {
      body(doc, 'The first page has only text.');
      doc.addPage();
      body(doc, 'The photo below was taken at noon.');
      doc.image(jpeg, { width: 96 });
      doc.moveDown();
      body(doc, 'The photo above shows the square.');
    });
    const parsed = await parsePdf({ bytes, filename: 'later.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:The first page has only text.',
      'paragraph:The photo below was taken at noon.',
      'image:img_001.jpg',
      'paragraph:The photo above shows the square.',
    ]);
    expect(parsed.children[2]?.metadata).toEqual({ page: 2 });
    expect(Buffer.from(parsed.images[0]?.bytes ?? [])).toEqual(jpeg);
  });

  it('reads a PDF encrypted with an owner password only through pdf.js: bold headings and images', async () => {
    const bytes = await pdfBytes(
      (doc) => {
        body(doc, 'The first page has only text.');
        doc.addPage();
        heading(doc, 'Photos', 11);
        doc.image(grayJpeg(), { width: 96 });
        doc.moveDown();
        body(doc, 'The photo above shows the square.');
      },
      { ownerPassword: 'owner', permissions: { printing: 'highResolution' } },
    );
    const parsed = await parsePdf({ bytes, filename: 'locked.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:The first page has only text.',
      ['Photos', ['image:img_001.png', 'paragraph:The photo above shows the square.']],
    ]);
  });

  it('extracts an embedded image as a PNG at its place among the paragraphs, with its pixels intact', async () => {
    const pixels = gradient(64, 48);
    const png = Buffer.from(encodePng(64, 48, PIXEL_KIND.rgb, pixels));
    const bytes = await pdfBytes((doc) => {
      body(doc, 'The chart below shows the monthly totals.');
      doc.image(png, { width: 128 });
      doc.moveDown();
      body(doc, 'The chart above is drawn from the ledger.');
    });
    const parsed = await parsePdf({ bytes, filename: 'chart.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:The chart below shows the monthly totals.',
      'image:img_001.png',
      'paragraph:The chart above is drawn from the ledger.',
    ]);
    expect(parsed.children[1]?.metadata).toEqual({ page: 1 });
    const [image] = parsed.images;
    expect(image).toMatchObject({ name: 'img_001.png', mime: 'image/png', width: 64, height: 48 });
    const bytesOf = image?.bytes ?? new Uint8Array();
    expect(readImageInfo(bytesOf)).toMatchObject({ mime: 'image/png', width: 64, height: 48 });
    expect(pngPixels(bytesOf, 64 * 3)).toEqual(pixels);
  });

  it('keeps the page image of a scan without a text layer and says there is no text', async () => {
    const page = Buffer.from(encodePng(120, 160, PIXEL_KIND.rgb, gradient(120, 160)));
    const bytes = await pdfBytes((doc) => {
      doc.image(page, 0, 0, { width: 612 });
    });
    const parsed = await parsePdf({ bytes, filename: 'scan.pdf' });
    expect(outline(parsed.children)).toEqual(['image:img_001.png']);
    expect(parsed.warnings).toContain(
      'the PDF has no text layer (a scan?): only its images can be read, through OCR',
    );
  });

  it('skips tiny images and says so', async () => {
    const dot = Buffer.from(encodePng(8, 8, PIXEL_KIND.rgb, new Uint8Array(8 * 8 * 3).fill(90)));
    const bytes = await pdfBytes((doc) => {
      doc.image(dot, { width: 8 });
      body(doc, 'A bullet drawn as an image.');
    });
    const parsed = await parsePdf({ bytes, filename: 'dot.pdf' });
    expect(parsed.images).toEqual([]);
    expect(outline(parsed.children)).toEqual(['paragraph:A bullet drawn as an image.']);
    expect(parsed.warnings).toContain('1 image(s) smaller than 32 px skipped');
  });

  it('keeps an image repeated on every page (a logo) once', async () => {
    const logo = Buffer.from(encodePng(40, 40, PIXEL_KIND.rgb, gradient(40, 40)));
    const bytes = await pdfBytes((doc) => {
      for (let page = 1; page <= 3; page++) {
        if (page > 1) doc.addPage();
        doc.image(logo, { width: 40 });
        body(doc, `Page ${page} text.`);
      }
    });
    const parsed = await parsePdf({ bytes, filename: 'logo.pdf' });
    expect(parsed.images.map((image) => image.name)).toEqual(['img_001.png']);
    expect(parsed.warnings).toContain('2 image(s) repeated on later pages (logos, decorations) kept once');
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Document, HeadingLevel, ImageRun, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { describe, expect, it } from 'vitest';
import { MAMMOTH_OPTIONS, parseDocx } from '#shared/parse/docx/index.ts';
import { docxBytes, outline, rewriteDocx, text } from './docx-fixtures.ts';
import { jpegBytes, pngBytes } from './fixtures.ts';

function image(data: Uint8Array, type: 'png' | 'jpg', description: string): ImageRun {
  return new ImageRun({
    type,
    data,
    transformation: { width: 40, height: 30 },
    altText: { name: description, title: description, description },
  });
}

/** An EMF header record: type 1, size 108, bounds, frame, then the " EMF" signature at byte 40. */
function emfBytes(): Uint8Array {
  const bytes = new Uint8Array(108);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 1, true);
  view.setUint32(4, 108, true);
  bytes.set([0x20, 0x45, 0x4d, 0x46], 40);
  return bytes;
}

async function picturesDocx(): Promise<Uint8Array> {
  return docxBytes(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Charts', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({
              children: [
                new TextRun('Before the chart.'),
                image(pngBytes(4, 3), 'png', 'Sales chart'),
                new TextRun('After it.'),
              ],
            }),
            new Table({
              rows: [
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('Logo')] }),
                    new TableCell({
                      children: [new Paragraph({ children: [image(jpegBytes(8, 6), 'jpg', 'Logo')] })],
                    }),
                  ],
                }),
              ],
            }),
            new Paragraph('The end.'),
          ],
        },
      ],
    }),
  );
}

describe('parseDocx images', () => {
  it('extracts embedded images at their place, named in order, with type and size', async () => {
    const parsed = await parseDocx({ bytes: await picturesDocx(), filename: 'charts.docx' });
    expect(outline(parsed.children)).toEqual([
      [
        'section:Charts',
        [
          'paragraph:Before the chart.',
          'image:img_001.png',
          'paragraph:After it.',
          'table:| Logo |  |\n| --- | --- |',
          'image:img_002.jpg',
          'paragraph:The end.',
        ],
      ],
    ]);
    expect(parsed.images.map(({ name, mime, width, height }) => ({ name, mime, width, height }))).toEqual([
      { name: 'img_001.png', mime: 'image/png', width: 4, height: 3 },
      { name: 'img_002.jpg', mime: 'image/jpeg', width: 8, height: 6 },
    ]);
    expect(parsed.images[0]?.bytes).toEqual(pngBytes(4, 3));
    const section = parsed.children[0];
    const imageNode = section?.type === 'section' ? section.children[1] : undefined;
    expect(imageNode).toEqual({ type: 'image', name: 'img_001.png', alt: 'Sales chart' });
    expect(parsed.warnings).toEqual([]);
  });

  it('keeps an EMF image with its mime type and warns that it cannot be previewed', async () => {
    const bytes = rewriteDocx(await picturesDocx(), (name, data) =>
      name.endsWith('.png') ? emfBytes() : data,
    );
    const parsed = await parseDocx({ bytes, filename: 'charts.docx' });
    expect(parsed.images.map(({ name, mime }) => ({ name, mime }))).toEqual([
      { name: 'img_001.emf', mime: 'image/emf' },
      { name: 'img_002.jpg', mime: 'image/jpeg' },
    ]);
    expect(parsed.images[0]?.bytes).toEqual(emfBytes());
    expect(parsed.warnings).toEqual([
      'img_001.emf is image/emf, which cannot be previewed; it is kept as it is',
    ]);
  });

  it('never reads a linked (external) image, even when the linked file exists', async () => {
    expect(MAMMOTH_OPTIONS.externalFileAccess).toBe(false);
    const folder = mkdtempSync(join(tmpdir(), 'docx-link-'));
    const target = join(folder, 'secret.png');
    writeFileSync(target, pngBytes(9, 9));
    const bytes = rewriteDocx(await picturesDocx(), (name, data) => {
      if (name === 'word/document.xml') {
        // Only the first picture becomes a link; the second stays embedded.
        return text(data).replace(/r:embed="/, 'r:link="');
      }
      if (name === 'word/_rels/document.xml.rels') {
        return text(data).replace(
          /(<Relationship [^>]*Target=")media\/[^"]+\.png"/,
          `$1${pathToFileURL(target).href}" TargetMode="External"`,
        );
      }
      return data;
    });
    const parsed = await parseDocx({ bytes, filename: 'charts.docx' });
    expect(parsed.images.map((img) => img.name)).toEqual(['img_001.jpg']);
    expect(parsed.images.some((img) => img.width === 9)).toBe(false);
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toMatch(/^image "Sales chart" skipped: .*external file access is disabled/);
  });
});

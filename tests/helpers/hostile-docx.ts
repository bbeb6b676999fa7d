import { Document, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';
import { pngBytes, zipBytes } from '../unit/parse/fixtures.ts';

/** PNG's signature followed by bytes no decoder can read ("Error attempting to read image"). */
export function garbagePng(): Uint8Array {
  const body = Array.from({ length: 256 }, (_, i) => (i * 37 + 11) & 255);
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...body]);
}

export const SVG_PICTURE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><text x="2" y="20">SVG</text></svg>';

/**
 * A Word document with one picture between two paragraphs, whose media entry holds `picture` under
 * `word/media/image1.<extension>` (the relationship points there): e.g. an SVG as `a:blip r:embed`,
 * or a PNG of garbage bytes.
 */
export async function docxWithPicture(picture: Uint8Array | string, extension: string): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun('Heron migration notes before the picture.')] }),
          new Paragraph({
            children: [
              new ImageRun({
                type: 'png',
                data: pngBytes(4, 3),
                transformation: { width: 40, height: 30 },
                altText: { name: 'Picture', title: 'Picture', description: 'Picture' },
              }),
            ],
          }),
          new Paragraph({ children: [new TextRun('Egret wintering grounds after the picture.')] }),
        ],
      },
    ],
  });
  const bytes = new Uint8Array(await Packer.toBuffer(document));
  const entries = readZipDirectory(bytes).map((entry) => {
    const data = new Uint8Array(readZipEntry(bytes, entry, 64 * 1024 * 1024));
    if (/^word\/media\/[^/]+\.png$/.test(entry.name)) {
      return { name: `word/media/image1.${extension}`, data: picture, deflate: true };
    }
    if (entry.name === 'word/_rels/document.xml.rels') {
      const rels = new TextDecoder().decode(data).replace(/media\/[^"]+\.png"/, `media/image1.${extension}"`);
      return { name: entry.name, data: rels, deflate: true };
    }
    if (entry.name === '[Content_Types].xml' && extension === 'svg') {
      const types = new TextDecoder()
        .decode(data)
        .replace('<Default ', '<Default Extension="svg" ContentType="image/svg+xml"/><Default ');
      return { name: entry.name, data: types, deflate: true };
    }
    return { name: entry.name, data, deflate: true };
  });
  return zipBytes(entries);
}

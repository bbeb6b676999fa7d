import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import CFB from 'cfb';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';
import { emfHeader } from './pptx-fixtures.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/legacy/review.ppt');

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

/** review.ppt with one stream replaced by what `edit` makes of it, written back as a compound file. */
function replaceStream(name: string, edit: (stream: Uint8Array) => Uint8Array): Uint8Array {
  const container = CFB.read(readFileSync(FIXTURE), { type: 'buffer' });
  const entry = CFB.find(container, name);
  if (!entry) throw new Error(`no ${name} stream`);
  entry.content = edit(Uint8Array.from(entry.content as Uint8Array));
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
}

/** review.ppt with one stream edited in place. */
function editStream(name: string, edit: (stream: DataView) => void): Uint8Array {
  return replaceStream(name, (bytes) => {
    edit(new DataView(bytes.buffer));
    return bytes;
  });
}

/** An OfficeArt EMF BLIP ([MS-ODRAW] 2.2.24): header, a UID, the 34-byte metafile header, the data deflated. */
function emfBlip(emf: Uint8Array): Uint8Array {
  const data = deflateSync(emf);
  const out = new Uint8Array(8 + 16 + 34 + data.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0x3d4 << 4, true);
  view.setUint16(2, 0xf01a, true);
  view.setUint32(4, out.length - 8, true);
  view.setUint32(24, emf.length, true);
  out[24 + 32] = 0; // deflated
  out.set(data, 58);
  return out;
}

describe('PowerPoint 97-2003 presentations', () => {
  it('gives a section per slide in order, titled by its title, with body text and speaker notes', async () => {
    const doc = await parse(new Uint8Array(readFileSync(FIXTURE)), 'review.ppt');
    expect(doc.metadata).toEqual({ slides: 3 });
    expect(outline(doc.children)).toEqual([
      [
        'section:Quarterly review',
        ['paragraph:Revenue grew 12 percent over the quarter', 'paragraph:The Lisbon office opens in March.'],
      ],
      // LibreOffice's import of the deck's one picture gives two frames (its .odp has both too).
      [
        'section:Risks',
        ['paragraph:Supplier delays\nCurrency swings', 'image:img_001.jpg', 'image:img_002.jpg'],
      ],
      ['section:下一步', ['paragraph:招聘两名数据工程师']],
    ]);
    const notes = doc.children[0]?.type === 'section' ? doc.children[0].children[1] : undefined;
    expect(notes?.metadata).toEqual({ slide: 1, kind: 'notes' });
  });

  it('reads the pictures of the Pictures stream: the JPEG the deck was given, on its slide', async () => {
    const doc = await parse(new Uint8Array(readFileSync(FIXTURE)), 'review.ppt');
    const risks = doc.children[1];
    const images = risks?.type === 'section' ? risks.children.filter((node) => node.type === 'image') : [];
    expect(images.map((node) => node.metadata)).toEqual([{ slide: 2 }, { slide: 2 }]);
    expect(doc.images.map(({ name, mime, width, height }) => ({ name, mime, width, height }))).toEqual([
      { name: 'img_001.jpg', mime: 'image/jpeg', width: 40, height: 30 },
      { name: 'img_002.jpg', mime: 'image/jpeg', width: 40, height: 30 },
    ]);
    // The bytes are the picture itself: it decodes to the fixture's solid red-orange.
    const { data } = await sharp(doc.images[0]?.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].map((v) => Math.round(v / 10))).toEqual([20, 6, 3]);
    expect(doc.warnings).toEqual([]);
  });

  it('keeps a deflated EMF picture, inflated, with a warning', async () => {
    const emf = emfHeader();
    const doc = await parse(
      replaceStream('Pictures', () => emfBlip(emf)),
      'emf.ppt',
    );
    expect(doc.images[0]?.mime).toBe('image/emf');
    expect(doc.images[0]?.bytes).toEqual(emf);
    expect(doc.warnings[0]).toBe('img_001.emf is image/emf, which cannot be previewed; it is kept as it is');
  });

  it('skips a picture missing from the Pictures stream with the reason, keeping the slides', async () => {
    const doc = await parse(
      replaceStream('Pictures', () => new Uint8Array(8)),
      'lost.ppt',
    );
    expect(doc.images).toEqual([]);
    expect(doc.warnings).toEqual([
      'a picture on slide 2 skipped: its picture is missing from the file',
      'a picture on slide 2 skipped: its picture is missing from the file',
    ]);
    expect(doc.children).toHaveLength(3);
  });

  it('fails an encrypted presentation with that reason', async () => {
    const encrypted = editStream('Current User', (user) => user.setUint32(12, 0xf3d1c4df, true));
    await expect(parse(encrypted, 'secret.ppt')).rejects.toThrow(
      'secret.ppt is password-protected (an encrypted PowerPoint 97-2003 presentation); save it without a password',
    );
  });

  it('fails a presentation whose edit chain is broken with the reason', async () => {
    const broken = editStream('Current User', (user) => user.setUint32(16, 12, true));
    await expect(parse(broken, 'broken.ppt')).rejects.toThrow(
      `broken.ppt is damaged: the slides of the PowerPoint 97-2003 presentation could not be read (no UserEditAtom at offset 12); ${'open it in the program that made it and save it again (or export it anew), or upload an intact copy'}`,
    );
  });
});

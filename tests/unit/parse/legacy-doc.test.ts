import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import CFB from 'cfb';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/legacy');

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

/** The .doc with its WordDocument stream edited, written back as a compound file. */
function editWordStream(bytes: Uint8Array, edit: (word: Uint8Array) => void): Uint8Array {
  const container = CFB.read(Buffer.from(bytes), { type: 'buffer' });
  const entry = CFB.find(container, 'WordDocument');
  if (!entry) throw new Error('no WordDocument stream');
  const word = Uint8Array.from(entry.content as Uint8Array);
  edit(word);
  entry.content = word;
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
}

describe('Word 97-2003 documents', () => {
  it('reads the text in order, headings from the paragraph styles, tables as tables', async () => {
    const doc = await parse(fixture('handbook.doc'), 'handbook.doc');
    expect(doc.title).toBe('handbook');
    expect(outline(doc.children)).toEqual([
      [
        'section:Travel policy',
        [
          'paragraph:Employees book flights through the travel desk at least 14 days ahead.',
          [
            'section:Hotels',
            [
              'paragraph:The nightly hotel limit in Lisbon is 180 euros.',
              'table:| City | Limit |\n| --- | --- |\n| Lisbon | 180 |\n| Madrid | 160 |',
              'image:img_001.png',
            ],
          ],
        ],
      ],
      [
        'section:Expenses',
        [
          'paragraph:Receipts are filed within 30 days of the trip.',
          'paragraph:报销须在三十天内提交，逾期不予受理。',
        ],
      ],
    ]);
  });

  it('reads an inline picture from the Data stream: the PNG the document was given, where it sits', async () => {
    const doc = await parse(fixture('handbook.doc'), 'handbook.doc');
    expect(
      doc.images.map(({ name, mime, width, height, source }) => ({ name, mime, width, height, source })),
    ).toEqual([{ name: 'img_001.png', mime: 'image/png', width: 32, height: 24, source: 'Data' }]);
    // The bytes are the picture itself: it decodes to the fixture's solid blue.
    const { data } = await sharp(doc.images[0]?.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([20, 90, 160]);
    expect(doc.warnings).toEqual([]);
  });

  it('skips a picture whose Data stream entry is damaged with the reason, keeping the text', async () => {
    const container = CFB.read(Buffer.from(fixture('handbook.doc')), { type: 'buffer' });
    const data = CFB.find(container, 'Data');
    if (!data) throw new Error('no Data stream');
    data.content = new Uint8Array(16);
    const doc = await parse(new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer), 'lost.doc');
    expect(doc.images).toEqual([]);
    expect(doc.warnings).toEqual(['picture 1 skipped: its picture header lies outside the Data stream']);
    expect(doc.children).toHaveLength(2);
  });

  it('fails an encrypted document with that reason', async () => {
    const encrypted = editWordStream(fixture('handbook.doc'), (word) => {
      word[0x0b] = (word[0x0b] ?? 0) | 0x01;
    });
    await expect(parse(encrypted, 'secret.doc')).rejects.toThrow(
      'secret.doc is password-protected (an encrypted Word 97-2003 document); save it without a password',
    );
  });

  it('calls a document with a garbled header damaged, not password-protected', async () => {
    const garbled = editWordStream(fixture('handbook.doc'), (word) => {
      word.fill(0x41, 0, 64); // the FIB's identifier and flags (the "encrypted" bit among them) become noise
    });
    await expect(parse(garbled, 'garbled.doc')).rejects.toThrow(
      'garbled.doc is damaged: its Word 97-2003 header (FIB) is missing or corrupted; open it in the program that made it and save it again (or export it anew), or upload an intact copy',
    );
  });

  it('fails a document whose text cannot be read with the reason, and keeps text when only styles are unreadable', async () => {
    const noTable = editWordStream(fixture('handbook.doc'), (word) => {
      // Point the piece table (fcClx) past the end of the table stream.
      new DataView(word.buffer).setUint32(0x01a2, 0x7fffffff, true);
    });
    await expect(parse(noTable, 'broken.doc')).rejects.toThrow(
      // The reader's RangeError ('The value of "offset" is out of range') stays in the cause only.
      /^broken\.doc is damaged: the text of the Word 97-2003 document could not be read; open it in the program that made it and save it again/,
    );
    const noStyles = editWordStream(fixture('handbook.doc'), (word) => {
      // Point the style sheet (fcStshf) past the end of the table stream.
      new DataView(word.buffer).setUint32(0x00a2, 0x7fffffff, true);
    });
    const doc = await parse(noStyles, 'plain.doc');
    expect(doc.warnings).toEqual([expect.stringMatching(/^the paragraph styles could not be read/)]);
    // The same text, headings read as paragraphs.
    expect(doc.children.map((node) => node.type)).toEqual([
      ...['paragraph', 'paragraph', 'paragraph', 'paragraph', 'table', 'image'],
      ...['paragraph', 'paragraph', 'paragraph'],
    ]);
  });
});

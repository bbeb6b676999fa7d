import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, Paragraph } from 'docx';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { parseTimeoutError } from '#shared/parse/deadline.ts';
import type { ParseLimits } from '#shared/parse/limits.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { parsePptx } from '#shared/parse/pptx/index.ts';
import { readZipDirectory } from '#shared/parse/zip.ts';
import { docxBytes } from './docx-fixtures.ts';
import { zipBytes } from './fixtures.ts';
import { pptxBytes, rewritePptx } from './pptx-fixtures.ts';

async function reasonFor(
  bytes: Uint8Array,
  filename = 'deck.pptx',
  limits?: ParseLimits,
  signal?: AbortSignal,
): Promise<string> {
  const error = await parsePptx({
    bytes,
    filename,
    ...(limits ? { limits } : {}),
    ...(signal ? { signal } : {}),
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnsupportedDocumentError);
  return (error as Error).message;
}

/** An OLE compound file header followed by a directory entry name, as an encrypted OOXML file has. */
function oleWith(streamName: string): Uint8Array {
  const bytes = new Uint8Array(2048);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(Buffer.from(streamName, 'utf16le'), 1024);
  return bytes;
}

function slides(count: number): Promise<Uint8Array> {
  return pptxBytes((deck) => {
    for (let i = 1; i <= count; i++) deck.addSlide().addText(`Slide text ${i}`, { x: 1, y: 1, w: 4, h: 1 });
  });
}

describe('parsePptx failures', () => {
  it('names the file and the part when a part of the archive will not inflate', async () => {
    // Re-zipped with every part deflated, then the slide part's data garbled (0xff starts a deflate
    // block of the reserved type); its local header and name stay as they were.
    const bytes = rewritePptx(await slides(1), () => undefined);
    const slide = readZipDirectory(bytes).find((entry) => entry.name === 'ppt/slides/slide1.xml');
    if (!slide) throw new Error('the fixture has no slide part');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = slide.localHeaderOffset;
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    bytes.fill(0xff, start, start + Math.min(slide.compressedSize, 64));
    expect(await reasonFor(bytes)).toMatch(
      /^deck\.pptx is damaged: a part of its ZIP archive is corrupted \(ppt\/slides\/slide1\.xml could not be inflated\); open it in the program that made it/,
    );
  });

  it('says a truncated file is not a readable PowerPoint presentation', async () => {
    const bytes = await slides(1);
    expect(await reasonFor(bytes.subarray(0, Math.floor(bytes.length / 2)))).toMatch(
      /^deck\.pptx is not a readable PowerPoint presentation: the ZIP archive is damaged/,
    );
  });

  it('says a ZIP archive without a presentation part is not a presentation', async () => {
    const bytes = zipBytes([{ name: '[Content_Types].xml', data: '<Types/>' }]);
    expect(await reasonFor(bytes)).toBe(
      'deck.pptx is not a readable PowerPoint presentation: the archive has no presentation part (ppt/presentation.xml)',
    );
  });

  it('says an encrypted presentation is password-protected', async () => {
    expect(await reasonFor(oleWith('EncryptedPackage'))).toBe(
      'deck.pptx is password-protected (an encrypted PowerPoint presentation); save it without a password',
    );
  });

  it('advises saving as .pptx only a legacy .ppt that opens; a corrupt one is called damaged', async () => {
    const legacy = new Uint8Array(
      readFileSync(join(import.meta.dirname, '../../fixtures/legacy/review.ppt')),
    );
    expect(await reasonFor(legacy, 'old.pptx')).toBe(
      'old.pptx is not a readable PowerPoint presentation: it is a legacy PowerPoint 97-2003 (.ppt) presentation; save it as .pptx',
    );
    const corrupt = await reasonFor(oleWith('PowerPoint Document'), 'old.pptx');
    expect(corrupt).toMatch(
      /^old\.pptx is damaged: its OLE container is truncated or corrupted, so it is not a valid PowerPoint presentation \(/,
    );
    expect(corrupt).not.toMatch(/save it as/);
  });

  it('says a Word document is no presentation, even though it is an Office archive', async () => {
    const bytes = await docxBytes(new Document({ sections: [{ children: [new Paragraph('Hello.')] }] }));
    expect(await reasonFor(bytes, 'report.pptx')).toBe(
      'report.pptx is not a readable PowerPoint presentation: the archive has no presentation part (ppt/presentation.xml)',
    );
  });

  it('says a legacy workbook under a .pptx name is a workbook', async () => {
    const legacy = new Uint8Array(
      readFileSync(join(import.meta.dirname, '../../fixtures/legacy/budget.xls')),
    );
    expect(await reasonFor(legacy, 'sheet.pptx')).toBe(
      'sheet.pptx is not a readable PowerPoint presentation: it is a legacy Excel 97-2003 (.xls) workbook; save it as .pptx',
    );
  });

  it('says what a file of another kind is', async () => {
    expect(await reasonFor(new TextEncoder().encode('%PDF-1.7\n'))).toBe(
      'deck.pptx is not a readable PowerPoint presentation: it is a PDF document',
    );
  });

  it('refuses a zip bomb from its directory, before inflating it', async () => {
    const bomb = zipBytes([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'ppt/presentation.xml', data: new Uint8Array(8 * 1024 * 1024), deflate: true },
    ]);
    // The archive limits are checked by `parseDocument` before any parser runs.
    const error = await parseDocument({ bytes: bomb, filename: 'deck.pptx' }, 'pptx').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect((error as Error).message).toMatch(
      /^deck\.pptx is not a readable PowerPoint presentation: ppt\/presentation\.xml expands \d+ times/,
    );
  });

  it('refuses a presentation with more slides than limits.maxSlides', async () => {
    const limits = { ...DEFAULT_PARSE_LIMITS, maxSlides: 2 };
    expect(await reasonFor(await slides(3), 'deck.pptx', limits)).toBe(
      'deck.pptx is not a readable PowerPoint presentation: it has 3 slides (at most 2 are read; limits.maxSlides)',
    );
  });

  it('never expands entities declared in a DTD (billion laughs) and names the part', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE p:sld [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>';
    const bytes = rewritePptx(await slides(1), (name, xml) =>
      name === 'ppt/slides/slide1.xml'
        ? xml.replace(/^<\?xml[^>]*\?>/, laughs).replace('Slide text 1', '&lol2;')
        : undefined,
    );
    expect(await reasonFor(bytes)).toMatch(
      /^deck\.pptx is not a readable PowerPoint presentation: ppt\/slides\/slide1\.xml is not well-formed XML \(.*undefined entity/,
    );
  });

  it('says which part is not well-formed XML', async () => {
    const bytes = rewritePptx(await slides(1), (name, xml) =>
      name === 'ppt/slides/slide1.xml' ? xml.replace('</p:sld>', '') : undefined,
    );
    expect(await reasonFor(bytes)).toMatch(
      /^deck\.pptx is not a readable PowerPoint presentation: ppt\/slides\/slide1\.xml is not well-formed XML/,
    );
  });

  it('fails with the deadline’s reason when the parse time limit has passed', async () => {
    const controller = new AbortController();
    controller.abort(parseTimeoutError('deck.pptx', 5));
    const error = await parsePptx({
      bytes: await slides(1),
      filename: 'deck.pptx',
      signal: controller.signal,
    }).catch((e: unknown) => e);

    expect((error as Error).message).toBe('deck.pptx took longer than 5 ms to parse (limits.parseTimeoutMs)');
  });

  it('checks the time limit before each slide, so a long deck stops where the time ran out', async () => {
    let checks = 0;
    const signal = {
      aborted: false,
      throwIfAborted() {
        checks++;
        if (checks === 2) throw parseTimeoutError('deck.pptx', 5);
      },
    } as unknown as AbortSignal;

    expect(await reasonFor(await slides(3), 'deck.pptx', undefined, signal)).toBe(
      'deck.pptx took longer than 5 ms to parse (limits.parseTimeoutMs)',
    );
    expect(checks).toBe(2);
  });

  it('bounds the XML read in all, so slides sharing one large notes part cannot make it read again and again', async () => {
    const shared = await pptxBytes((deck) => {
      deck.addSlide().addNotes('long notes '.repeat(20_000));
      deck.addSlide().addNotes('short');
      deck.addSlide().addNotes('short');
    });
    const bytes = rewritePptx(shared, (name, xml) =>
      /slide[23]\.xml\.rels$/.test(name) ? xml.replace(/notesSlide[23]\.xml/, 'notesSlide1.xml') : undefined,
    );
    const archiveBytes = readZipDirectory(bytes).reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    const limits = { ...DEFAULT_PARSE_LIMITS, maxUncompressedBytes: archiveBytes };

    expect(await reasonFor(bytes, 'deck.pptx', limits)).toMatch(
      /^deck\.pptx is not a readable PowerPoint presentation: its parts add up to more than \d+ KB of XML when read \(limits\.maxUncompressedBytes\)$/,
    );
  });

  it('reads a slide part listed twice once, with a warning', async () => {
    const bytes = rewritePptx(await slides(2), (name, xml) =>
      name === 'ppt/_rels/presentation.xml.rels'
        ? xml.replace('slides/slide2.xml', 'slides/slide1.xml')
        : undefined,
    );
    const document = await parsePptx({ bytes, filename: 'deck.pptx' });

    expect(document.children.map((node) => (node.type === 'section' ? node.title : node.type))).toEqual([
      'Slide text 1',
    ]);
    expect(document.warnings).toEqual(['slide 2 was skipped: it repeats slide 1 (ppt/slides/slide1.xml)']);
  });
});

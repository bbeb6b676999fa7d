import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { parseDocument } from '#shared/parse/index.ts';
import { parsers } from '#shared/parse/registry.ts';
import { markdownInput, utf8 } from './fixtures.ts';

describe('parseDocument', () => {
  it('dispatches md to the Markdown parser', async () => {
    const doc = await parseDocument(markdownInput('# T\n\nx\n'), 'md');
    expect(doc.children).toEqual([
      { type: 'section', title: 'T', children: [{ type: 'paragraph', text: 'x' }] },
    ]);
  });

  it('dispatches txt to the plain-text parser', async () => {
    const doc = await parseDocument({ bytes: utf8('# not a heading\n\nx'), filename: 'a.txt' }, 'txt');
    expect(doc.children).toEqual([
      { type: 'paragraph', text: '# not a heading' },
      { type: 'paragraph', text: 'x' },
    ]);
  });

  it('refuses formats whose parser has not landed yet', async () => {
    // Take one parser out for the test, so it keeps testing the refusal as the formats land.
    const saved = parsers.pdf;
    delete parsers.pdf;
    try {
      const error = await parseDocument({ bytes: utf8('x'), filename: 'a.pdf' }, 'pdf').catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UnsupportedDocumentError);
      expect((error as Error).message).toMatch(
        /^a\.pdf is a PDF document, which DropQA does not read yet; DropQA reads \.md, \.txt, /,
      );
    } finally {
      if (saved) parsers.pdf = saved;
    }
  });

  it('dispatches docx to the Word parser', async () => {
    const error = await parseDocument({ bytes: utf8('x'), filename: 'a.docx' }, 'docx').catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/^a\.docx is not a readable Word document: /);
  });

  it('wraps a parser crash into UnsupportedDocumentError with the reason', async () => {
    const input = markdownInput('![a](a.png)\n');
    input.readRelative = () => {
      throw new TypeError('disk on fire');
    };
    // A throwing reader is reported as a warning, not a crash; a broken input object is a crash.
    const doc = await parseDocument(input, 'md');
    expect(doc.warnings).toEqual(['image "a.png" skipped: it could not be read (disk on fire)']);
    const broken = { filename: 'b.md', bytes: undefined as unknown as Uint8Array };
    const error = await parseDocument(broken, 'md').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedDocumentError);
    expect((error as Error).message).toMatch(
      /^b\.md could not be parsed as md: its reader stopped on content it did not expect, so the file may be damaged; open it/,
    );
    // The engine's own message ("Cannot read properties of undefined") is kept in the cause only.
    expect((error as Error).message).not.toMatch(/undefined|Cannot/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('keeps the reason of a plain error as it is, which a library wrote for people', async () => {
    const saved = parsers.md;
    parsers.md = {
      type: 'md',
      parse: async () => {
        throw new Error('the table nests deeper than 64 levels');
      },
    };
    try {
      const error = await parseDocument(markdownInput('x'), 'md').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        /could not be parsed as md: the table nests deeper than 64 levels$/,
      );
    } finally {
      parsers.md = saved;
    }
  });
});

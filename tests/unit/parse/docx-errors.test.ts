import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, Paragraph } from 'docx';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { parseDocx } from '#shared/parse/docx/index.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParseInput } from '#shared/parse/types.ts';
import { docxBytes } from './docx-fixtures.ts';
import { zipBytes } from './fixtures.ts';

async function reasonFor(
  bytes: Uint8Array,
  filename = 'report.docx',
  parse: (input: ParseInput) => Promise<unknown> = parseDocx,
): Promise<string> {
  const error = await parse({ bytes, filename }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnsupportedDocumentError);
  return (error as Error).message;
}

/** The archive limits are checked by `parseDocument` before any parser runs. */
const throughParseDocument = (input: ParseInput) => parseDocument(input, 'docx');

/** An OLE compound file header followed by a directory entry name, as an encrypted OOXML file has. */
function oleWith(streamName: string): Uint8Array {
  const bytes = new Uint8Array(2048);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(Buffer.from(streamName, 'utf16le'), 1024);
  return bytes;
}

describe('parseDocx failures', () => {
  it('says a truncated file is not a readable Word document', async () => {
    const bytes = await docxBytes(new Document({ sections: [{ children: [new Paragraph('Hello.')] }] }));
    const reason = await reasonFor(bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(reason).toMatch(/^report\.docx is not a readable Word document: /);
  });

  it('says a ZIP archive without a Word body is not a readable Word document', async () => {
    const bytes = zipBytes([{ name: '[Content_Types].xml', data: '<Types/>' }]);
    expect(await reasonFor(bytes)).toMatch(
      /^report\.docx is not a readable Word document: .*main document part/,
    );
  });

  it('says an encrypted document is password-protected', async () => {
    expect(await reasonFor(oleWith('EncryptedPackage'))).toBe(
      'report.docx is password-protected (an encrypted Word document); save it without a password',
    );
  });

  it('advises saving as .docx only a legacy .doc that opens; a corrupt one is called damaged', async () => {
    const legacy = new Uint8Array(
      readFileSync(join(import.meta.dirname, '../../fixtures/legacy/handbook.doc')),
    );
    expect(await reasonFor(legacy, 'old.docx')).toBe(
      'old.docx is not a readable Word document: it is a legacy Word 97-2003 (.doc) document; save it as .docx',
    );
    const corrupt = await reasonFor(oleWith('WordDocument'), 'old.docx');
    expect(corrupt).toMatch(
      /^old\.docx is damaged: its OLE container is truncated or corrupted, so it is not a valid Word document \(.*\); open it in the program that made it and save it again \(or export it anew\), or upload an intact copy$/,
    );
    expect(corrupt).not.toMatch(/save it as/);
  });

  it('refuses a zip bomb from its directory, before inflating it', async () => {
    const bomb = zipBytes([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: new Uint8Array(8 * 1024 * 1024), deflate: true },
    ]);
    expect(await reasonFor(bomb, 'report.docx', throughParseDocument)).toMatch(
      /^report\.docx is not a readable Word document: word\/document\.xml expands \d+ times/,
    );
  });

  it('refuses an archive with too many entries', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `x/${i}.txt`, data: 'x' }));
    expect(await reasonFor(zipBytes(entries), 'report.docx', throughParseDocument)).toMatch(
      /the archive has 10001 entries/,
    );
  });
});

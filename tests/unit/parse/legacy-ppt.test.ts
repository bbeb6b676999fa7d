import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import CFB from 'cfb';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/legacy/review.ppt');

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

/** review.ppt with one stream edited, written back as a compound file. */
function editStream(name: string, edit: (stream: DataView) => void): Uint8Array {
  const container = CFB.read(readFileSync(FIXTURE), { type: 'buffer' });
  const entry = CFB.find(container, name);
  if (!entry) throw new Error(`no ${name} stream`);
  const bytes = Uint8Array.from(entry.content as Uint8Array);
  edit(new DataView(bytes.buffer));
  entry.content = bytes;
  return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
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
      ['section:Risks', ['paragraph:Supplier delays\nCurrency swings']],
      ['section:下一步', ['paragraph:招聘两名数据工程师']],
    ]);
    const notes = doc.children[0]?.type === 'section' ? doc.children[0].children[1] : undefined;
    expect(notes?.metadata).toEqual({ slide: 1, kind: 'notes' });
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

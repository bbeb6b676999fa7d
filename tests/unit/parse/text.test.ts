import { describe, expect, it } from 'vitest';
import { parseText } from '#shared/parse/text.ts';
import { utf8 } from './fixtures.ts';

describe('parseText', () => {
  it('splits paragraphs on blank lines and keeps line breaks inside them', async () => {
    const doc = await parseText({
      bytes: utf8('第一段\n第二行\n\n  \nSecond para.\r\n\r\nThird.\n'),
      filename: 'log.txt',
    });
    expect(doc.title).toBe('log');
    expect(doc.children).toEqual([
      { type: 'paragraph', text: '第一段\n第二行' },
      { type: 'paragraph', text: 'Second para.' },
      { type: 'paragraph', text: 'Third.' },
    ]);
  });

  it('refuses text that is not UTF-8', async () => {
    await expect(parseText({ bytes: new Uint8Array([0x61, 0xff]), filename: 'a.txt' })).rejects.toThrow(
      'a.txt is not valid UTF-8 text (invalid byte at offset 1)',
    );
  });
});

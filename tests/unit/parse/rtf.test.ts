import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';
import { encodeGbk, utf8 } from './fixtures.ts';

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

/** Chinese as Word writes it in a GB2312 font: each GBK byte as \'xx. */
const hexGbk = (text: string) => [...encodeGbk(text)].map((b) => `\\'${b.toString(16)}`).join('');
/** Chinese as \uN with a one-character '?' fallback. */
const unicode = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0)}?`).join('');

const WORD_RTF = [
  '{\\rtf1\\ansi\\ansicpg1252\\deff0',
  '{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fnil\\fcharset134 SimSun;}}',
  '{\\colortbl;\\red0\\green0\\blue0;}',
  '{\\stylesheet{\\s0 Normal;}{\\s1\\outlinelevel0 heading 1;}{\\s2 heading 2;}{\\*\\cs10 Default Paragraph Font;}}',
  '{\\info{\\title Travel \\{policy\\}}{\\author Li Na}{\\operator ignored}}',
  '{\\header {\\pard Page header\\par}}',
  '\\pard\\s1 Scope\\par',
  `\\pard\\s0 Flights are booked {\\f1 ${hexGbk('提前十四天')}} ahead.\\par`,
  `\\pard\\s2 ${unicode('酒店')}\\par`,
  '\\pard See {\\field{\\*\\fldinst HYPERLINK "https://example.com"}{\\fldrslt the portal}} and {\\pict\\pngblip 89504e47}this.\\line Second line.\\par',
  '\\trowd\\cellx1000\\cellx2000',
  `\\pard\\intbl City\\cell Limit\\cell\\row`,
  `\\pard\\intbl ${unicode('里斯本')}\\cell 180\\cell\\row`,
  '\\pard\\outlinelevel0 Expenses\\par',
  '\\pard Receipts within 30 days.\\par',
  '}',
].join('\n');

describe('RTF documents', () => {
  it('gives outline levels and heading styles as the tree, decodes GBK bytes and \\uN, keeps tables and fields', async () => {
    const bytes = new Uint8Array(Buffer.from(WORD_RTF, 'latin1'));
    expect(detectFileType(bytes, 'policy.rtf')).toBe('rtf');
    // Content decides: an RTF document under another name is still RTF, with the mismatch warned.
    expect(detectFileType(bytes, 'policy.txt')).toBe('rtf');
    const doc = await parse(bytes, 'policy.rtf');
    expect(doc.title).toBe('Travel {policy}');
    expect(doc.metadata).toEqual({ creator: 'Li Na' });
    expect(outline(doc.children)).toEqual([
      [
        'section:Scope',
        [
          'paragraph:Flights are booked 提前十四天 ahead.',
          [
            'section:酒店',
            [
              'paragraph:See the portal and this.\nSecond line.',
              'table:| City | Limit |\n| --- | --- |\n| 里斯本 | 180 |',
            ],
          ],
        ],
      ],
      ['section:Expenses', ['paragraph:Receipts within 30 days.']],
    ]);
  });

  it('reads what LibreOffice writes (styled headings, a table, Chinese in \\uN)', async () => {
    const bytes = new Uint8Array(
      readFileSync(new URL('../../fixtures/legacy/handbook.rtf', import.meta.url)),
    );
    const doc = await parse(bytes, 'handbook.rtf');
    expect(doc.title).toBe('Staff handbook');
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

  it("decodes \\'xx bytes in the \\ansicpg code page when the font does not name one", async () => {
    const rtf = `{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0\\fnil SimSun;}}\\pard ${hexGbk('数据平台')}\\par}`;
    const doc = await parse(new Uint8Array(Buffer.from(rtf, 'latin1')), 'cn.rtf');
    expect(outline(doc.children)).toEqual(['paragraph:数据平台']);
  });

  it('reads a .txt that a word processor saved as RTF as RTF, and a note that starts with {\\rtf as text', async () => {
    // What WordPad, Word and TextEdit write: the text, not the markup, is what the person wants.
    for (const header of [
      '{\\rtf1\\ansi\\ansicpg1252\\deff0\\nouicompat\\deflang1033',
      '{\\rtf1\\adeflang1025\\ansi\\ansicpg1252\\uc1',
      '{\\rtf1\\ansi\\ansicpg1252\\cocoartf2639',
    ]) {
      const saved = utf8(`${header}{\\fonttbl{\\f0 Calibri;}}\n\\pard Meeting at noon.\\par\n}`);
      expect(detectFileType(saved, 'notes.txt')).toBe('rtf');
      const doc = await parseDocument({ bytes: saved, filename: 'notes.txt' }, 'rtf');
      expect(doc.children).toEqual([{ type: 'paragraph', text: 'Meeting at noon.' }]);
      expect(doc.warnings).toContain('notes.txt is named .txt but is an RTF document; it was read as one');
    }
    // A note about RTF keeps its words, braces and backslashes included.
    const note = utf8('{\\rtf1 opens every RTF file; then comes \\ansi and the font table.\n');
    expect(detectFileType(note, 'notes.txt')).toBe('txt');
    const doc = await parseDocument({ bytes: note, filename: 'notes.txt' }, 'txt');
    expect(doc.children).toEqual([
      { type: 'paragraph', text: '{\\rtf1 opens every RTF file; then comes \\ansi and the font table.' },
    ]);
    // Named .rtf, the opening alone is enough (a minimal or hand-written RTF).
    expect(detectFileType(utf8('{\\rtf1 Hello}'), 'hello.rtf')).toBe('rtf');
  });

  it('reads a file named .rtf that is not RTF as the text it is', async () => {
    const bytes = new Uint8Array(Buffer.from('just text\n'));
    expect(detectFileType(bytes, 'notes.rtf')).toBe('txt');
  });

  it('fails binary data behind an RTF signature with a readable reason and keeps a cut-off file with a warning', async () => {
    const binary = new Uint8Array([...Buffer.from('{\\rtf1\\ansi x'), 0, 1, 2, 0x7d]);
    await expect(parse(binary, 'bad.rtf')).rejects.toThrow(
      'bad.rtf is not a readable RTF document: it holds binary data (a NUL byte at offset 13)',
    );
    const cut = await parse(new Uint8Array(Buffer.from('{\\rtf1\\ansi {\\pard Kept text\\par ')), 'cut.rtf');
    expect(outline(cut.children)).toEqual(['paragraph:Kept text']);
    expect(cut.warnings).toEqual([
      'cut.rtf ends before its last group closes (cut off?); the text up to there was read',
    ]);
  });
});

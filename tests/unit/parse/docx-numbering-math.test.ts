import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocx } from '#shared/parse/docx/index.ts';
import { createNumberer, formatCounter } from '#shared/parse/docx/numbering.ts';
import { ommlText } from '#shared/parse/docx/omml.ts';
import { parseXml } from '#shared/parse/pptx/xml.ts';
import { outline, rewriteDocx, text } from './docx-fixtures.ts';

const level = (ilvl: number, format: string, text: string, extra = '') =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/>${extra}<w:lvlText w:val="${text}"/></w:lvl>`;

function numbering(levels: string, nums = '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>') {
  return parseXml(
    `<w:numbering><w:abstractNum w:abstractNumId="0">${levels}</w:abstractNum>${nums}</w:numbering>`,
  );
}

describe('formatCounter', () => {
  it.each([
    [4, 'upperRoman', 'IV'],
    [14, 'lowerRoman', 'xiv'],
    [28, 'lowerLetter', 'bb'],
    [3, 'upperLetter', 'C'],
    [7, 'decimalZero', '07'],
    [12, 'chineseCounting', '十二'],
    [3, 'decimalEnclosedCircle', '③'],
    [5, 'none', ''],
  ])('writes %i in %s as %s', (n, format, text) => {
    expect(formatCounter(n, format)).toBe(text);
  });
});

describe('createNumberer', () => {
  it('restarts deeper levels, keeps a level that never restarts, and reads instance start overrides', () => {
    const next = createNumberer(
      numbering(
        level(0, 'decimal', 'Chapter %1') +
          level(1, 'decimal', '%1.%2') +
          level(2, 'lowerLetter', '(%3)', '<w:lvlRestart w:val="0"/>'),
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>',
      ),
      undefined,
    );
    const at = (level: number, numId = '1') => next({ style: undefined, numId, level });
    expect([at(0), at(1), at(2), at(1), at(0), at(1), at(2), at(0, '2')]).toEqual([
      'Chapter 1',
      '1.1',
      '(a)',
      '1.2',
      'Chapter 2',
      '2.1',
      '(b)',
      'Chapter 7',
    ]);
  });

  it('follows a style through basedOn, and finds the level from the list when the style gives none', () => {
    // Parsed as the Word parser does: without leaving out `w:style` (a slide's formatting).
    const styles = parseXml(
      '<w:styles><w:style w:styleId="Base"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style><w:style w:styleId="H2"><w:basedOn w:val="Base"/></w:style><w:style w:styleId="H1"/></w:styles>',
      new Set(['rPr']),
    );
    const next = createNumberer(
      numbering(
        level(0, 'decimal', '%1', '<w:pStyle w:val="H1"/>') +
          level(1, 'decimal', '%1.%2', '<w:pStyle w:val="H2"/>'),
      ),
      styles,
    );
    expect(next({ style: 'H2', numId: undefined, level: undefined })).toBe('1.1');
    expect(next({ style: 'H2', numId: '0', level: undefined })).toBeUndefined();
    expect(next({ style: 'Normal', numId: undefined, level: undefined })).toBeUndefined();
  });

  it('gives bullets no number', () => {
    const next = createNumberer(numbering(level(0, 'bullet', '•')), undefined);
    expect(next({ style: undefined, numId: '1', level: 0 })).toBeUndefined();
  });
});

describe('Word lists', () => {
  it('marks items as Word shows them, and keeps a chart in an item out of the item text', async () => {
    // The committed chart fixture, its chart moved into the second item of a lettered list.
    const chartDocx = new Uint8Array(
      readFileSync(new URL('../../fixtures/office-kinds/chart.docx', import.meta.url)),
    );
    const item = (level: number, inner: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="7"/></w:numPr></w:pPr>${inner}</w:p>`;
    const run = (value: string) => `<w:r><w:t xml:space="preserve">${value}</w:t></w:r>`;
    const bytes = rewriteDocx(chartDocx, (name, data) => {
      if (name === 'word/numbering.xml') {
        return `<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:abstractNum w:abstractNumId="3">${level(0, 'lowerLetter', '%1)')}${level(1, 'lowerRoman', '(%2)')}</w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="3"/></w:num></w:numbering>`;
      }
      if (name !== 'word/document.xml') return data;
      return text(data).replace(
        /<w:p><w:r><w:t xml:space="preserve">The chart[\s\S]*?<\/w:p>(<w:p><w:r>)(<w:drawing>[\s\S]*?<\/w:drawing><\/w:r>)<\/w:p>/,
        (_, _open: string, drawing: string) =>
          item(0, run('Plan')) +
          item(0, `${run('See the chart')}<w:r>${drawing}`) +
          item(1, run('Draft')) +
          item(0, run('Ship')),
      );
    });
    const parsed = await parseDocx({ bytes, filename: 'steps.docx' });
    expect(outline(parsed.children)).toEqual([
      [
        'section:Revenue',
        [
          'paragraph:a) Plan\nb) See the chart',
          'paragraph:Regional revenue 2025',
          expect.stringMatching(/^table:\| {2}\| North \| South \|/),
          'paragraph:  (i) Draft\nc) Ship',
        ],
      ],
    ]);
  });
});

describe('ommlText', () => {
  const math = (inner: string) => ommlText(parseXml(`<m:oMath>${inner}</m:oMath>`));
  const r = (text: string) => `<m:r><m:t>${text}</m:t></m:r>`;
  const e = (inner: string) => `<m:e>${inner}</m:e>`;

  it.each([
    ['a fraction', `<m:f><m:num>${r('a+b')}</m:num><m:den>${r('2')}</m:den></m:f>`, '(a+b)/2'],
    ['a cube root', `<m:rad><m:deg>${r('3')}</m:deg>${e(r('x'))}</m:rad>`, '∛x'],
    [
      'a sub- and superscript',
      `<m:sSubSup>${e(r('x'))}<m:sub>${r('i')}</m:sub><m:sup>${r('2')}</m:sup></m:sSubSup>`,
      'x_i²',
    ],
    [
      'delimiters with a separator',
      `<m:d><m:dPr><m:begChr m:val="["/><m:sepChr m:val=","/><m:endChr m:val="]"/></m:dPr>${e(r('0'))}${e(r('1'))}</m:d>`,
      '[0,1]',
    ],
    ['a function', `<m:func><m:fName>${r('sin')}</m:fName>${e(r('x'))}</m:func>`, 'sin x'],
    ['an accent', `<m:acc><m:accPr><m:chr m:val="\u0307"/></m:accPr>${e(r('x'))}</m:acc>`, 'x\u0307'],
    ['a bar', `<m:bar><m:barPr><m:pos m:val="top"/></m:barPr>${e(r('x'))}</m:bar>`, 'x\u0305'],
    ['a lower limit', `<m:limLow>${e(r('lim'))}<m:lim>${r('n→∞')}</m:lim></m:limLow>`, 'lim_(n→∞)'],
    [
      'a matrix',
      `<m:m><m:mr>${e(r('a'))}${e(r('b'))}</m:mr><m:mr>${e(r('c'))}${e(r('d'))}</m:mr></m:m>`,
      '[a b; c d]',
    ],
    [
      'an integral',
      `<m:nary><m:naryPr><m:chr m:val="∫"/></m:naryPr><m:sub>${r('0')}</m:sub><m:sup>${r('1')}</m:sup>${e(r('f(x)dx'))}</m:nary>`,
      '∫_0^1 f(x)dx',
    ],
  ])('writes %s', (_, inner, text) => {
    expect(math(inner)).toBe(text);
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFontIds } from '#shared/parse/pdf/font-ids.ts';
import { isBoldFontName } from '#shared/parse/pdf/font-names.ts';
import { openPdf } from '#shared/parse/pdf/pdfjs.ts';
import { readRawObjects } from '#shared/parse/pdf/raw-objects.ts';
import { pdfBytes, rawPdf } from './pdf-fixtures.ts';

function stream(content: string, dictionary = ''): string {
  return `<< ${dictionary} /Length ${content.length} >>\nstream\n${content}\nendstream`;
}

const font = (name: string, descriptor?: number) =>
  `<< /Type /Font /Subtype /TrueType /BaseFont /${name}${descriptor ? ` /FontDescriptor ${descriptor} 0 R` : ''} >>`;

/** A font file pdf.js ships (Liberation, SIL Open Font License). */
function embedded(file: string): Buffer {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return readFileSync(join(root, 'standard_fonts', file));
}

describe('createFontIds', () => {
  it('numbers fonts in the order pages and the forms they paint select them, and tells the bold ones', () => {
    const objects = readRawObjects(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /Resources << /Font << /R 5 0 R /B 6 0 R /I 7 0 R >> /XObject << /Fm 8 0 R >> >> >>',
        '<< /Type /Page /Parent 2 0 R /Contents 9 0 R >>',
        '<< /Type /Page /Parent 2 0 R /Contents 10 0 R >>',
        font('ABCDEF+Sans'),
        font('ABCDEG+Sans-Bold'),
        font('ABCDEH+Sans-Italic'),
        stream('BT /B 14 Tf (In a form) Tj ET', '/Type /XObject /Subtype /Form'),
        stream('BT /R 11 Tf (Body) Tj ET /Fm Do BT /R 11 Tf (More) Tj ET'),
        stream('BT /I 11 Tf (Aside) Tj /B 11 Tf (Bold) Tj ET'),
      ]),
    );
    const ids = createFontIds(objects);
    expect(ids.page(3, ['g_d0_f1', 'g_d0_f2'])).toEqual(
      new Map([
        ['g_d0_f1', false],
        ['g_d0_f2', true],
      ]),
    );
    expect(ids.page(4, ['g_d0_f3'])).toEqual(new Map([['g_d0_f3', false]]));
  });

  it('gives up for the rest of the document when two fonts share a descriptor (pdf.js may give them one id)', () => {
    const objects = readRawObjects(
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /Contents 6 0 R /Resources << /Font << /A 4 0 R /B 5 0 R >> >> >>',
        font('Sans', 7),
        font('Sans-Bold', 7),
        stream('BT /A 11 Tf (One) Tj /B 11 Tf (Two) Tj ET'),
        '<< /Type /FontDescriptor /FontName /Sans >>',
      ]),
    );
    const ids = createFontIds(objects);
    expect(ids.page(3, ['g_d0_f1'])).toBeUndefined();
    expect(ids.page(undefined, [])).toBeUndefined();
  });

  it("predicts pdf.js's own font ids page after page", async () => {
    // Embedded TrueType subsets (Type 0 fonts with descendants and descriptors) beside standard ones.
    const bytes = await pdfBytes((doc) => {
      doc.font('Helvetica').fontSize(11).text('First page in the body font.');
      doc.addPage();
      doc.font('Times-Roman').text('Second page in another face, ');
      doc.font('Helvetica-Bold').text('then a bold line.');
      doc.addPage();
      doc.font(embedded('LiberationSans-Bold.ttf')).text('Third page in an embedded bold face, ');
      doc.font(embedded('LiberationSans-Regular.ttf')).text('then its regular one.');
    });
    const pdf = await openPdf(bytes, 'fonts.pdf');
    const ids = createFontIds(readRawObjects(bytes));
    const seen = new Set<string>();
    const predicted: [string, boolean][] = [];
    const actual: [string, boolean][] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const used = [...new Set(content.items.flatMap((item) => ('fontName' in item ? [item.fontName] : [])))];
      const fresh = used.filter((id) => !seen.has(id));
      for (const id of fresh) seen.add(id);
      predicted.push(...(ids.page(page.ref?.num, fresh) ?? []));
      await page.getOperatorList();
      for (const id of fresh) {
        const loaded = page.commonObjs.get(id) as { name: string };
        actual.push([id, isBoldFontName(loaded.name)]);
      }
    }
    await pdf.destroy();
    expect(actual.map(([, bold]) => bold)).toEqual([false, false, true, true, false]);
    expect(predicted).toEqual(actual);
  });
});

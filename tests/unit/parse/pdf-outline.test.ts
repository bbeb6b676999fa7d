import { describe, expect, it } from 'vitest';
import { parsePdf } from '#shared/parse/pdf/index.ts';
import { body, bookmark, heading, outline, pdfBytes } from './pdf-fixtures.ts';

describe('parsePdf outline', () => {
  it('takes the headings from the bookmarks, matching their text on the page or inserting them where they point', async () => {
    const bytes = await pdfBytes((doc) => {
      const overview = bookmark(doc.outline, 'Overview', doc.y);
      body(doc, 'Overview');
      body(doc, 'The overview is set in the body font, so only the outline makes it a heading.');
      bookmark(overview, '1.1 Details', doc.y);
      body(doc, 'Details');
      body(doc, 'A large line below is not in the outline and stays text.');
      heading(doc, 'Large remark', 20);
      doc.addPage();
      bookmark(doc.outline, 'Appendix', doc.y);
      body(doc, 'The appendix has no heading line of its own.');
    });
    const parsed = await parsePdf({ bytes, filename: 'o.pdf' });
    expect(outline(parsed.children)).toEqual([
      [
        'Overview',
        [
          'paragraph:The overview is set in the body font, so only the outline makes it a heading.',
          [
            'Details',
            ['paragraph:A large line below is not in the outline and stays text.', 'paragraph:Large remark'],
          ],
        ],
      ],
      ['Appendix', ['paragraph:The appendix has no heading line of its own.']],
    ]);
    const appendix = parsed.children[1];
    expect(appendix?.metadata).toEqual({ pageStart: 2 });
  });
});

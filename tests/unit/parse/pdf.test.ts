import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import { parsePdf } from '#shared/parse/pdf/index.ts';
import type { TreeNode } from '#shared/parse/types.ts';
import { allNodes, body, heading, outline, pdfBytes } from './pdf-fixtures.ts';

const INTRO = 'This plan sets out what the team will build next year and how the work is divided.';
const SCOPE = 'Only the document services are in scope; the mobile clients follow later.';
const BUDGET = 'The budget grows by a tenth, most of it for hardware and hosting.';

function plan(info: Record<string, string> = {}): Promise<Uint8Array> {
  return pdfBytes(
    (doc) => {
      heading(doc, 'Annual Plan', 24);
      body(doc, INTRO);
      heading(doc, '1 Introduction', 16);
      body(doc, INTRO);
      heading(doc, '1.1 Scope', 13);
      body(doc, SCOPE);
      doc.addPage();
      heading(doc, '2 Budget', 16);
      body(doc, BUDGET);
    },
    { info },
  );
}

describe('parsePdf', () => {
  it('nests sections by font size and keeps the first-page title as a title paragraph', async () => {
    const parsed = await parsePdf({ bytes: await plan(), filename: 'plan.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:Annual Plan',
      `paragraph:${INTRO}`,
      ['1 Introduction', [`paragraph:${INTRO}`, ['1.1 Scope', [`paragraph:${SCOPE}`]]]],
      ['2 Budget', [`paragraph:${BUDGET}`]],
    ]);
    expect(parsed.children[0]?.metadata).toEqual({ kind: 'title', page: 1 });
  });

  it('is the parser a PDF detected by its bytes goes to, whatever its name', async () => {
    const bytes = await plan();
    const parsed = await parseDocument({ bytes, filename: 'plan.bin' }, detectFileType(bytes, 'plan.bin'));
    expect(parsed.title).toBe('Annual Plan');
    expect(outline(parsed.children).at(-1)).toEqual(['2 Budget', [`paragraph:${BUDGET}`]]);
  });

  it('records the page of every leaf and the first page of every section', async () => {
    const parsed = await parsePdf({ bytes: await plan(), filename: 'plan.pdf' });
    const pages = allNodes(parsed.children).map((node: TreeNode) =>
      node.type === 'section'
        ? `${node.title}@${node.metadata?.pageStart}`
        : `${node.type}@${node.metadata?.page}`,
    );
    expect(pages).toEqual([
      'paragraph@1',
      'paragraph@1',
      '1 Introduction@1',
      'paragraph@1',
      '1.1 Scope@1',
      'paragraph@1',
      '2 Budget@2',
      'paragraph@2',
    ]);
    expect(parsed.metadata).toMatchObject({ pages: 2 });
  });

  it('takes the title from the document information first, then the largest first-page text, then the file name', async () => {
    const fromInfo = await parsePdf({ bytes: await plan({ Title: 'Plan 2025' }), filename: 'plan.pdf' });
    expect(fromInfo.title).toBe('Plan 2025');
    const fromWord = await parsePdf({
      bytes: await plan({ Title: 'Microsoft Word - Plan 2025.docx' }),
      filename: 'p.pdf',
    });
    expect(fromWord.title).toBe('Plan 2025');
    const unnamed = await parsePdf({ bytes: await plan({ Title: 'Document1' }), filename: 'plan.pdf' });
    expect(unnamed.title).toBe('Annual Plan');
    const fromLayout = await parsePdf({ bytes: await plan(), filename: 'plan.pdf' });
    expect(fromLayout.title).toBe('Annual Plan');
    const plain = await pdfBytes((doc) => body(doc, INTRO));
    const fromName = await parsePdf({ bytes: plain, filename: 'notes/meeting 3.pdf' });
    expect(fromName.title).toBe('meeting 3');
    expect(outline(fromName.children)).toEqual([`paragraph:${INTRO}`]);
  });

  it('finds headings by their numbering when they are set in the body font', async () => {
    const bytes = await pdfBytes((doc) => {
      body(doc, 'Chapter 1 Basics');
      body(doc, INTRO);
      body(doc, '1.1 Terms');
      body(doc, SCOPE);
      body(doc, '1.2 Rules');
      body(doc, BUDGET);
      body(doc, 'Chapter 2 Practice');
      body(doc, INTRO);
    });
    const parsed = await parsePdf({ bytes, filename: 'guide.pdf' });
    expect(outline(parsed.children)).toEqual([
      [
        'Chapter 1 Basics',
        [`paragraph:${INTRO}`, ['1.1 Terms', [`paragraph:${SCOPE}`]], ['1.2 Rules', [`paragraph:${BUDGET}`]]],
      ],
      ['Chapter 2 Practice', [`paragraph:${INTRO}`]],
    ]);
  });

  it('treats short bold lines as headings below the larger ones', async () => {
    const bytes = await pdfBytes((doc) => {
      heading(doc, 'Results', 16);
      body(doc, INTRO);
      heading(doc, 'Costs', 11);
      body(doc, BUDGET);
      heading(doc, 'Discussion', 16);
      body(doc, SCOPE);
    });
    const parsed = await parsePdf({ bytes, filename: 'r.pdf' });
    expect(outline(parsed.children)).toEqual([
      ['Results', [`paragraph:${INTRO}`, ['Costs', [`paragraph:${BUDGET}`]]]],
      ['Discussion', [`paragraph:${SCOPE}`]],
    ]);
  });

  it('splits paragraphs at gaps and list markers, and joins words hyphenated at a line end', async () => {
    const bytes = await pdfBytes((doc) => {
      doc.font('Helvetica').fontSize(11);
      doc.text(
        'The first paragraph is about the weather in the spring of that year, which was unusually dry and warm.',
      );
      doc.moveDown();
      doc.text('Second paragraph with a hyphen-');
      doc.text('ated word inside it.');
      doc.moveDown();
      doc.text('• apples');
      doc.text('• pears');
      doc.text('1.1. plums');
      doc.text('ii. figs');
    });
    const parsed = await parsePdf({ bytes, filename: 'p.pdf' });
    expect(outline(parsed.children)).toEqual([
      'paragraph:The first paragraph is about the weather in the spring of that year, which was unusually dry and warm.',
      'paragraph:Second paragraph with a hyphenated word inside it.',
      'paragraph:• apples',
      'paragraph:• pears',
      'paragraph:1.1. plums',
      'paragraph:ii. figs',
    ]);
  });
});

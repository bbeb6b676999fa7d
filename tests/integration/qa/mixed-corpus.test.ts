import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, HeadingLevel, Paragraph, Table, TableCell, TableRow } from 'docx';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { ask } from '#shared/qa/ask.ts';
import type { QaMode } from '#shared/qa/request.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { textPng } from '../../helpers/text-png.ts';
import { docxBytes } from '../../unit/parse/docx-fixtures.ts';
import { eml } from '../../unit/parse/mail-fixtures.ts';
import { pptxBytes, TITLE_AND_BODY } from '../../unit/parse/pptx-fixtures.ts';
import { collect, done } from './events.ts';

/**
 * The question-answering acceptance story over a small mixed corpus built as real files (Word with a
 * table, PowerPoint with a speaker note, Excel, Markdown with an image) and ingested by the product's
 * own runtime on the offline defaults: every mode answers from the right document and section.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);

async function corpus(): Promise<{ key: string; bytes: Uint8Array }[]> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const handbook = await docxBytes(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Supplier handbook', heading: HeadingLevel.TITLE }),
            new Paragraph({ text: 'Contacts', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Every supplier has one named contact person.'),
            new Table({
              rows: [
                new TableRow({ children: [cell('Supplier'), cell('Contact person')] }),
                new TableRow({ children: [cell('Nordic Steel'), cell('Ingrid Halvorsen')] }),
                new TableRow({ children: [cell('Baltic Glass'), cell('Tomas Vilkas')] }),
              ],
            }),
            new Paragraph({ text: 'Travel', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Trains are preferred over flights for trips under five hours.'),
          ],
        },
      ],
    }),
  );
  const review = await pptxBytes((deck) => {
    const slide = deck.addSlide({ masterName: TITLE_AND_BODY });
    slide.addText('Quarterly review', { placeholder: 'title' });
    slide.addText('Revenue grew in every region.', { placeholder: 'body' });
    slide.addNotes('The Lisbon office opens in September 2027.');
  });
  const nextSteps = await pptxBytes((deck) => {
    const slide = deck.addSlide({ masterName: TITLE_AND_BODY });
    slide.addText('下一步', { placeholder: 'title' });
    slide.addText('招聘两名数据工程师', { placeholder: 'body' });
  });
  const fair = eml(['From: Ops <ops@example.com>', 'To: all@example.com', 'Subject: Summer fair plans'], {
    headers: ['Content-Type: text/plain; charset=utf-8'],
    body: 'There will be face painting, a petting zoo and funnel cake.',
  });
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Inventory');
  sheet.addRow(['Part', 'Warehouse', 'Quantity']);
  sheet.addRow(['Titanium bolt', 'Rotterdam', 1450]);
  sheet.addRow(['Copper washer', 'Hamburg', 310]);
  const stock = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
  const guide = utf8(
    '# Building guide\n\n## Evacuation\n\nThe assembly point is the north car park.\n\n' +
      '![Floor plan with the emergency exit](plan.png)\n\n## Parking\n\nVisitors park on level 2.\n',
  );
  return [
    { key: 'uploads/handbook.docx', bytes: handbook },
    { key: 'uploads/review.pptx', bytes: review },
    { key: 'uploads/stock.xlsx', bytes: stock },
    { key: 'uploads/plan.png', bytes: textPng('EAST DOOR', 4) },
    { key: 'uploads/guide.md', bytes: guide },
    { key: 'uploads/next-steps.pptx', bytes: nextSteps },
    { key: 'uploads/fair.eml', bytes: fair },
  ];
}

describe('question answering over a mixed corpus (offline)', () => {
  let dir: string;
  let rt: Runtime;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-mixed-'));
    rt = await openRuntime(parseConfig({ dataDir: dir, providers: { ocr: { kind: 'none' } } }));
    const files = await corpus();
    const images = files.filter((f) => f.key.endsWith('.png'));
    for (const image of images) await rt.store.put(image.key, image.bytes);
    const outcomes = await rt.ingest.ingest(files.filter((f) => !images.includes(f)));
    expect(outcomes.map((o) => [o.key, o.status])).toEqual([
      ['uploads/handbook.docx', 'ready'],
      ['uploads/review.pptx', 'ready'],
      ['uploads/stock.xlsx', 'ready'],
      ['uploads/guide.md', 'ready'],
      ['uploads/next-steps.pptx', 'ready'],
      ['uploads/fair.eml', 'ready'],
    ]);
  }, 120_000);
  afterAll(async () => {
    await rt?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function asked(question: string, mode: QaMode) {
    const events = await collect(ask(rt.qa, { question, mode, show_reasoning: true, version: undefined }));
    return { events, response: done(events) };
  }

  const questions = [
    {
      question: 'Who is the contact person at Nordic Steel?',
      answer: 'Ingrid Halvorsen',
      source: 'handbook.docx',
      section: 'Contacts',
    },
    {
      question: 'When does the Lisbon office open?',
      answer: 'September 2027',
      source: 'review.pptx',
      section: 'Quarterly review',
    },
    {
      question: 'How many titanium bolts are in the Rotterdam warehouse?',
      answer: '1450',
      source: 'stock.xlsx',
      section: 'Inventory',
    },
  ];

  for (const mode of ['auto', 'agent', 'two-stage', 'documents'] as const) {
    it(`answers from the table, the slide note and the sheet in ${mode} mode, citing their sections`, async () => {
      for (const q of questions) {
        const { events, response } = await asked(q.question, mode);
        expect(events[0]?.type).toBe('meta');
        expect(events.some((e) => e.type === 'delta')).toBe(true);
        expect(response.answer).toContain(q.answer);
        expect(response.provider).toMatch(/offline/);
        const cited = response.sources.map((s) => `${s.document_name} > ${s.section}`);
        expect(cited, q.question).toContainEqual(expect.stringContaining(`${q.source} > ${q.section}`));
      }
    });
  }

  it('answers from one verified line with medium confidence, without escalating, in auto mode', async () => {
    // The line repeats few of the question's words: its slide title and its e-mail's Subject say the rest.
    for (const [question, answer, source] of [
      ['下一步要招聘什么人？', '招聘两名数据工程师', 'next-steps.pptx'],
      ['What will the summer fair have?', 'face painting, a petting zoo and funnel cake', 'fair.eml'],
    ] as const) {
      const { response } = await asked(question, 'auto');
      expect(response.answer, question).toContain(answer);
      expect(response.answer).not.toContain('Subject:');
      expect(response.mode, question).toBe('direct');
      expect(response.confidence, question).toBe('medium');
      expect(response.sources.map((s) => s.document_name)).toEqual([source]);
    }
  });

  it('streams the agent trace and the documents progress, and cites the image in documents mode', async () => {
    const agent = await asked('Who is the contact person at Nordic Steel?', 'agent');
    expect(agent.events.filter((e) => e.type === 'trace').length).toBeGreaterThan(0);
    expect(agent.response.reasoning_trace?.length).toBeGreaterThan(0);

    const documents = await asked(
      'Where is the assembly point and what does the floor plan show?',
      'documents',
    );
    expect(documents.events.some((e) => e.type === 'progress')).toBe(true);
    expect(documents.response.answer).toContain('north car park');
    const image = documents.response.references?.find((r) => r.chunk_type === 'image');
    expect(image?.doc_name).toBe('guide.md');
    expect(image?.image_url).toMatch(/^\/api\/v1\/documents\/.+\/images\/img_001\.png/);
  });
});

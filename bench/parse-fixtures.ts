import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import PptxGenJS from 'pptxgenjs';
import { rng } from './corpus.ts';

/**
 * Documents generated for the parse benchmark, deterministic and of realistic shape: a report with
 * headings, paragraphs and tables (DOCX), a deck with titles, bullets and notes (PPTX), a sheet of
 * typed rows (XLSX) and a text-heavy PDF.
 */

const WORDS =
  'budget project team cloud network security migration customer revenue quarter report risk plan design review storage database index search query model latency release deploy schedule milestone contract vendor audit policy incident backup recovery capacity cost forecast 预算 项目 团队 安全 迁移 客户 收入 季度 报告 风险 计划'.split(
    ' ',
  );

function sentence(random: () => number, words: number): string {
  const picked = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]);
  return `${picked.join(' ')}.`;
}

function paragraph(random: () => number): string {
  return Array.from({ length: 4 + Math.floor(random() * 4) }, () => sentence(random, 12)).join(' ');
}

/** A Word report: `sections` Heading 1 sections, each with two Heading 2 parts, paragraphs and a table. */
export async function generateDocx(sections: number): Promise<Uint8Array> {
  const random = rng(1);
  const children: (Paragraph | Table)[] = [];
  for (let s = 1; s <= sections; s++) {
    children.push(new Paragraph({ text: `${s}. ${sentence(random, 4)}`, heading: HeadingLevel.HEADING_1 }));
    for (let p = 1; p <= 2; p++) {
      children.push(
        new Paragraph({ text: `${s}.${p} ${sentence(random, 3)}`, heading: HeadingLevel.HEADING_2 }),
      );
      for (let i = 0; i < 4; i++) children.push(new Paragraph(paragraph(random)));
    }
    const rows = Array.from(
      { length: 5 },
      (_, r) =>
        new TableRow({
          children: Array.from(
            { length: 4 },
            (_, c) =>
              new TableCell({ children: [new Paragraph(r === 0 ? `Column ${c + 1}` : sentence(random, 2))] }),
          ),
        }),
    );
    children.push(new Table({ rows }));
  }
  const document = new Document({ sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** A deck of `slides` slides: a title, five bullets and speaker notes each. */
export async function generatePptx(slides: number): Promise<Uint8Array> {
  const random = rng(2);
  const pptx = new PptxGenJS();
  for (let s = 1; s <= slides; s++) {
    const slide = pptx.addSlide();
    slide.addText(`Slide ${s}: ${sentence(random, 4)}`, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28 });
    slide.addText(
      Array.from({ length: 5 }, () => ({ text: sentence(random, 10), options: { bullet: true } })),
      { x: 0.5, y: 1.3, w: 9, h: 4, fontSize: 16 },
    );
    slide.addNotes(paragraph(random));
  }
  const buffer = (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
  return new Uint8Array(buffer);
}

/** A workbook of one sheet: a header and `rows` rows of text, numbers and dates. */
export async function generateXlsx(rows: number): Promise<Uint8Array> {
  const random = rng(3);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(['Order', 'Customer', 'Region', 'Amount', 'Date', 'Note']);
  for (let i = 1; i <= rows; i++) {
    sheet.addRow([
      i,
      `customer ${Math.floor(random() * 5000)}`,
      WORDS[i % 7],
      Math.round(random() * 1e6) / 100,
      new Date(Date.UTC(2024, 0, 1 + (i % 365))),
      sentence(random, 6),
    ]);
  }
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/**
 * A large workbook written with exceljs's streaming writer straight to `path` (it is never held in
 * memory), of about `targetBytes`: unique strings per row, so the shared strings table is as large
 * as it gets, the worst case for a reader's memory.
 */
export async function writeLargeXlsx(path: string, targetBytes: number): Promise<number> {
  const random = rng(4);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(['Id', 'Code', 'Name', 'Amount', 'Date', 'Comment']).commit();
  // ~76 compressed bytes a row, measured on this generator (624,153 rows gave 45 MB).
  const rows = Math.ceil(targetBytes / 76);
  for (let i = 1; i <= rows; i++) {
    const code = Math.floor(random() * 2 ** 48).toString(36);
    sheet
      .addRow([
        i,
        code,
        `${WORDS[i % WORDS.length]} ${Math.floor(random() * 1e9).toString(36)}`,
        Math.round(random() * 1e8) / 100,
        new Date(Date.UTC(2020, 0, 1 + (i % 2000))),
        `${sentence(random, 3)} ${Math.floor(random() * 1e12).toString(36)}`,
      ])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
  return rows;
}

/** A PDF of `pages` pages: a heading and four paragraphs each, in the standard Helvetica font. */
export async function generatePdf(pages: number): Promise<Uint8Array> {
  const random = rng(5);
  const latin = () => paragraph(random).replace(/[^\x20-\x7e]+ ?/g, '');
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  for (let p = 1; p <= pages; p++) {
    doc.addPage();
    doc.fontSize(20).text(`${p}. Section ${p}`);
    doc.moveDown();
    for (let i = 0; i < 4; i++) doc.fontSize(11).text(latin()).moveDown();
  }
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

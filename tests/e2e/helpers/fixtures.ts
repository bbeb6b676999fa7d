import { Document, HeadingLevel, ImageRun, Packer, Paragraph, TextRun } from 'docx';
import { textPng } from '../../helpers/text-png.ts';

/** A small Word file: two sections, one with a picture (a PNG with readable text). */
export async function planDocx(): Promise<Uint8Array> {
  const png = textPng('ARCHITECTURE'); // read at 0.95 confidence, above the OCR floor
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Project Alpha plan', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Architecture', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('The architecture diagram shows the ingestion pipeline feeding the search service.'),
          new Paragraph({
            children: [new ImageRun({ type: 'png', data: png, transformation: { width: 160, height: 40 } })],
          }),
          new Paragraph({ text: 'Team', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [new TextRun('Zhang San leads project Alpha and previously led project Beta.')],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** A Markdown file whose text holds a script tag: it must reach the page as text, never as markup. */
export function notesMarkdown(): string {
  return [
    '# Release notes',
    '',
    '## Security review',
    '',
    'The reviewers found the snippet <script>window.__xss = 1</script> pasted in the release notes.',
    '',
    '<img src=x onerror="window.__xss = 2">',
    '',
    '## Budget',
    '',
    'The cloud migration budget is five hundred thousand dollars for containerization.',
    '',
    '## 中文摘要',
    '',
    '本次发布的核心目标是将检索服务迁移到混合云架构。',
    '',
  ].join('\n');
}

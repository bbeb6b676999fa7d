import PDFDocument from 'pdfkit';
import type { TreeNode } from '#shared/parse/types.ts';

/** PDFs built in code with pdfkit (or written by hand), and a compact view of the parsed tree. */

export type Pdf = InstanceType<typeof PDFDocument>;

export const LOREM =
  'The committee reviewed the budget for the coming year and agreed on the main priorities. ' +
  'Spending on maintenance will rise while travel is reduced, and the reserve stays unchanged. ';

/** Renders a pdfkit document drawn by `draw` to bytes. */
export function pdfBytes(
  draw: (doc: Pdf) => void,
  options: ConstructorParameters<typeof PDFDocument>[0] = {},
): Promise<Uint8Array> {
  const doc = new PDFDocument({ compress: true, ...options });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

/** A heading line: bold Helvetica at `size`, followed by body text settings. */
export function heading(doc: Pdf, text: string, size: number): void {
  doc.font('Helvetica-Bold').fontSize(size).text(text).moveDown(0.5);
  doc.font('Helvetica').fontSize(11);
}

export function body(doc: Pdf, text: string): void {
  doc.font('Helvetica').fontSize(11).text(text).moveDown();
}

/** Writes text at an absolute place, outside the margins, without pdfkit adding a page. */
export function stamp(doc: Pdf, text: string, x: number, y: number): void {
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.font('Helvetica').fontSize(9).text(text, x, y, { lineBreak: false });
  doc.page.margins.bottom = bottom;
  doc.font('Helvetica').fontSize(11);
}

/** An outline item (the types of pdfkit lag behind its `addItem` options). */
export interface Bookmark {
  addItem(title: string, options?: { fit?: boolean; top?: number }): Bookmark;
}

/** Adds a bookmark under `parent` (`doc.outline` or another bookmark) pointing at `top` on the current page. */
export function bookmark(parent: unknown, title: string, top: number): Bookmark {
  return (parent as Bookmark).addItem(title, { fit: false, top });
}

/**
 * A PDF written by hand from its objects' bodies (object n is `objects[n - 1]`, the catalog first),
 * with a correct cross-reference table.
 */
export function rawPdf(objects: readonly string[]): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** A compact outline of a tree: `Title` with children for sections, `type:text` for leaves. */
export type Outline = string | [string, Outline[]];

export function outline(nodes: readonly TreeNode[]): Outline[] {
  return nodes.map((node) => {
    switch (node.type) {
      case 'section':
        return [node.title, outline(node.children)];
      case 'image':
        return `image:${node.name}`;
      default:
        return `${node.type}:${node.text}`;
    }
  });
}

/** Every node of the tree, depth first. */
export function allNodes(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((node) => (node.type === 'section' ? [node, ...allNodes(node.children)] : [node]));
}

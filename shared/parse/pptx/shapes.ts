import { chartLeaves } from '../chart/chart-data.ts';
import { readOoxmlChart } from '../chart/ooxml-chart.ts';
import type { TreeNode } from '../types.ts';
import { diagramText } from './diagram.ts';
import type { PptxImages } from './images.ts';
import type { OpcPackage, Relationship } from './package.ts';
import { tableNode } from './table.ts';
import { type TextLine, textLines } from './text-body.ts';
import { child, path, type XmlElement } from './xml.ts';

/** What a shape tree holds, in reading order: text shapes (still to be titled and grouped) and leaves. */
export type SlideItem =
  | {
      kind: 'text';
      lines: TextLine[];
      /** The placeholder type (`title`, `body`, `obj` for an untyped one), undefined for a text box. */
      placeholder: string | undefined;
    }
  | { kind: 'leaf'; node: TreeNode };

/** The part whose shapes are read, and where their images and charts come from. */
export interface ShapeContext {
  pkg: OpcPackage;
  rels: Map<string, Relationship>;
  images: PptxImages;
  /** Metadata every leaf carries (`{ slide: n }`); each leaf gets its own copy. */
  metadata: Record<string, unknown>;
}

/** Footers, dates and slide numbers repeat on every slide; the notes page's slide image is no text. */
const SKIPPED_PLACEHOLDERS = new Set(['dt', 'ftr', 'sldNum', 'hdr', 'sldImg']);

function textShape(shape: XmlElement, out: SlideItem[]): void {
  const placeholder = path(shape, 'nvSpPr', 'nvPr', 'ph');
  const type = placeholder ? (placeholder.attributes.type ?? 'obj') : undefined;
  if (type && SKIPPED_PLACEHOLDERS.has(type)) return;
  const lines = textLines(child(shape, 'txBody'));
  if (lines.some((line) => line.text !== '')) out.push({ kind: 'text', lines, placeholder: type });
}

function graphicFrame(frame: XmlElement, ctx: ShapeContext, out: SlideItem[]): void {
  const data = path(frame, 'graphic', 'graphicData');
  const table = child(data, 'tbl');
  if (table) {
    const node = tableNode(table, { ...ctx.metadata });
    if (node) out.push({ kind: 'leaf', node });
    return;
  }
  const chart = child(data, 'chart');
  if (chart) {
    const rel = ctx.rels.get(chart.attributes['r:id'] ?? '');
    const data = rel && !rel.external ? readOoxmlChart(ctx.pkg.xml(rel.target)) : undefined;
    if (data) for (const node of chartLeaves(data, ctx.metadata)) out.push({ kind: 'leaf', node });
    return;
  }
  const diagram = child(data, 'relIds');
  if (diagram) {
    const text = diagramText(ctx.pkg, ctx.rels, diagram.attributes['r:dm'] ?? '');
    if (text) out.push({ kind: 'leaf', node: paragraph(text, { ...ctx.metadata, kind: 'diagram' }) });
  }
}

function paragraph(text: string, metadata: Record<string, unknown>): TreeNode {
  return { type: 'paragraph', text, metadata };
}

/**
 * Reads a shape tree (`p:spTree`, or a group's `p:grpSp`) in document order, which is the order
 * PowerPoint's reading order and screen readers follow: text shapes, tables, charts (title and data table), SmartArt
 * text and pictures; groups recursed; markup-compatibility blocks by their first choice (their
 * fallback when they have none).
 */
export function readShapes(
  tree: XmlElement | undefined,
  ctx: ShapeContext,
  out: SlideItem[] = [],
): SlideItem[] {
  for (const node of tree?.children ?? []) {
    if (typeof node === 'string') continue;
    switch (node.name) {
      case 'sp':
        textShape(node, out);
        break;
      case 'grpSp':
        readShapes(node, ctx, out);
        break;
      case 'graphicFrame':
        graphicFrame(node, ctx, out);
        break;
      case 'pic': {
        const image = ctx.images.collect(node, ctx.rels, { ...ctx.metadata });
        if (image) out.push({ kind: 'leaf', node: image });
        break;
      }
      case 'AlternateContent':
        // The choice is newer markup (charts of Office 2016, ink, equations) this reader still finds
        // the text of; the fallback repeats it as a picture or says the content needs a newer version.
        readShapes(child(node, 'Choice') ?? child(node, 'Fallback'), ctx, out);
        break;
    }
  }
  return out;
}

import { chartLeaves } from '../chart/chart-data.ts';
import { readOoxmlChart } from '../chart/ooxml-chart.ts';
import type { OpcPackage, Relationship } from '../pptx/package.ts';
import { textLines } from '../pptx/text-body.ts';
import { textLeaves } from '../pptx/text-leaves.ts';
import { child, type XmlElement } from '../pptx/xml.ts';
import type { TreeNode } from '../types.ts';

/** A drawing's charts and text shapes, depth first in document order (groups recursed). */
function drawingItems(element: XmlElement | undefined, out: XmlElement[] = []): XmlElement[] {
  for (const node of element?.children ?? []) {
    if (typeof node === 'string') continue;
    if (node.name === 'chart' || node.name === 'sp') out.push(node);
    else drawingItems(node, out);
  }
  return out;
}

function chartNodes(
  pkg: OpcPackage,
  rels: Map<string, Relationship>,
  chart: XmlElement,
  metadata: Record<string, unknown>,
): TreeNode[] {
  const rel = rels.get(chart.attributes['r:id'] ?? '');
  const data = rel && !rel.external ? readOoxmlChart(pkg.xml(rel.target)) : undefined;
  return data ? chartLeaves(data, metadata) : [];
}

/**
 * What is drawn on a worksheet or chart sheet, in the drawing's order: charts as leaves (title and a
 * categories × series table, `chartLeaves`) and the text of text boxes and shapes as paragraphs
 * (`kind: 'text-box'`): sheet part → its drawing (`xl/drawings/drawingN.xml`) → each anchored
 * `c:chart` (or `cx:chart`) and `xdr:sp` with text.
 */
export function sheetDrawings(
  pkg: OpcPackage,
  sheetPart: string,
  metadata: Record<string, unknown>,
): TreeNode[] {
  const out: TreeNode[] = [];
  for (const drawing of pkg.relationships(sheetPart).values()) {
    if (drawing.type !== 'drawing' || drawing.external) continue;
    const rels = pkg.relationships(drawing.target);
    for (const item of drawingItems(pkg.xml(drawing.target))) {
      if (item.name === 'chart') out.push(...chartNodes(pkg, rels, item, metadata));
      else
        out.push(...textLeaves(textLines(child(item, 'txBody')), false, { ...metadata, kind: 'text-box' }));
    }
  }
  return out;
}

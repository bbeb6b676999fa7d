import { chartLeaves } from '../chart/chart-data.ts';
import { readOoxmlChart } from '../chart/ooxml-chart.ts';
import type { OpcPackage } from '../pptx/package.ts';
import { descendants } from '../pptx/xml.ts';
import type { TreeNode } from '../types.ts';

/**
 * The charts drawn on a worksheet or chart sheet, in the drawing's order, as leaves (title and a
 * categories × series table, `chartLeaves`): sheet part → its drawing (`xl/drawings/drawingN.xml`)
 * → each `c:chart` (or `cx:chart`) it anchors → the chart part's cached values.
 */
export function sheetCharts(
  pkg: OpcPackage,
  sheetPart: string,
  metadata: Record<string, unknown>,
): TreeNode[] {
  const out: TreeNode[] = [];
  for (const drawing of pkg.relationships(sheetPart).values()) {
    if (drawing.type !== 'drawing' || drawing.external) continue;
    const rels = pkg.relationships(drawing.target);
    for (const chart of descendants(pkg.xml(drawing.target), 'chart')) {
      const rel = rels.get(chart.attributes['r:id'] ?? '');
      const data = rel && !rel.external ? readOoxmlChart(pkg.xml(rel.target)) : undefined;
      if (data) out.push(...chartLeaves(data, metadata));
    }
  }
  return out;
}

import { parseDocument } from 'htmlparser2';
import { type ChartData, chartLeaves } from '../chart/chart-data.ts';
import type { ParsedDocument } from '../types.ts';
import { readZipDirectory, readZipEntry } from '../zip.ts';
import { objectContentPath, readOdfChart } from './chart.ts';
import { elements, findElement } from './package.ts';

function objectsIn(node: { children: unknown[] }, out: string[] = []): string[] {
  for (const child of elements(node)) {
    const href = child.name === 'draw:object' ? child.attribs['xlink:href'] : undefined;
    if (href) out.push(href);
    else objectsIn(child, out);
  }
  return out;
}

/**
 * Adds the charts of an OpenDocument spreadsheet (.ods), which SheetJS does not read, to the
 * sections of their sheets (title and data table after the rows). Only a package with embedded
 * objects has its content part read again.
 */
export function addOdsCharts(bytes: Uint8Array, document: ParsedDocument): void {
  const entries = new Map(readZipDirectory(bytes).map((entry) => [entry.name, entry]));
  if (![...entries.keys()].some((name) => /^Object [^/]+\/content\.xml$/.test(name))) return;
  const read = (path: string) => {
    const entry = entries.get(path);
    return entry ? readZipEntry(bytes, entry, entry.uncompressedSize) : undefined;
  };
  const content = read('content.xml');
  if (!content) return;
  const spreadsheet = findElement(
    parseDocument(new TextDecoder().decode(content), { xmlMode: true }),
    'office:spreadsheet',
  );
  for (const table of spreadsheet ? elements(spreadsheet) : []) {
    if (table.name !== 'table:table') continue;
    const name = table.attribs['table:name'] ?? '';
    const charts = objectsIn(table)
      .map((href) => readOdfChart(read(objectContentPath(href))))
      .filter((chart): chart is ChartData => chart !== undefined);
    if (charts.length === 0) continue;
    const leaves = charts.flatMap((chart) => chartLeaves(chart, { sheet: name }));
    const section = document.children.find((node) => node.type === 'section' && node.title === name);
    if (section?.type === 'section') section.children.push(...leaves);
    else
      document.children.push({ type: 'section', title: name, children: leaves, metadata: { sheet: name } });
  }
}

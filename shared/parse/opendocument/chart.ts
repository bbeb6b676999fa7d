import type { Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { ChartData } from '../chart/chart-data.ts';
import { elements, findElement } from './package.ts';

function text(node: Element): string {
  let out = '';
  for (const child of node.children) {
    if (child.type === 'text') out += (child as unknown as { data: string }).data;
    else if ('name' in child) out += text(child as Element);
  }
  return out.replace(/\s+/g, ' ').trim();
}

function rowsOf(table: Element): string[][] {
  const rows: string[][] = [];
  const visit = (node: Element) => {
    for (const child of elements(node)) {
      if (child.name === 'table:table-row') {
        rows.push(
          elements(child)
            .filter((cell) => cell.name === 'table:table-cell')
            .map(text),
        );
      } else if (/^table:table-(header-rows|rows|row-group)$/.test(child.name)) visit(child);
    }
  };
  visit(table);
  return rows;
}

/**
 * What an OpenDocument chart object shows (`Object N/content.xml` of a .odt, .odp or .ods): its
 * title (`chart:title`) and the data of its own table (`table:table`, first row the series names,
 * first column the categories), which LibreOffice keeps with every chart. Undefined when the object
 * is no chart or has no table.
 *
 * @example readOdfChart(pkg.read('Object 1/content.xml'))
 */
export function readOdfChart(content: Uint8Array | undefined): ChartData | undefined {
  if (!content) return undefined;
  const document = parseDocument(new TextDecoder().decode(content), { xmlMode: true });
  const chart = findElement(document, 'chart:chart');
  const table = chart ? findElement(chart, 'table:table') : undefined;
  if (!chart || !table) return undefined;
  const titleElement = elements(chart).find((e) => e.name === 'chart:title');
  const [header = [], ...rows] = rowsOf(table);
  return {
    title: titleElement ? text(titleElement) || undefined : undefined,
    categories: rows.map((row) => row[0] ?? ''),
    series: header.slice(1).map((name, i) => ({ name, values: rows.map((row) => row[i + 1] ?? '') })),
  };
}

/** The content part of an embedded object (`./Object 1` → `Object 1/content.xml`). */
export function objectContentPath(href: string): string {
  return `${href.replace(/^\.\//, '').replace(/\/$/, '')}/content.xml`;
}

import type { OpcPackage } from './package.ts';
import { flatText } from './text-body.ts';
import { child, childrenNamed, descendants, ownText, path, type XmlElement } from './xml.ts';

function cachedText(reference: XmlElement | undefined): string {
  return descendants(reference, 'v')
    .map((value) => ownText(value).trim())
    .filter((text) => text !== '')
    .join(' ');
}

/** The series of every plot (`c:barChart/c:ser`, `c:lineChart/c:ser`, ...). */
function seriesOf(chart: XmlElement | undefined): XmlElement[] {
  const plots = path(chart, 'plotArea')?.children ?? [];
  return plots.flatMap((plot) => (typeof plot === 'string' ? [] : childrenNamed(plot, 'ser')));
}

/**
 * The title a chart part (`c:chartSpace/c:chart/c:title`, or `cx:` in Office 2016 chart parts) shows:
 * its rich text, or the cached value of the cell it refers to; a title without text of its own shows the series name when the chart
 * has exactly one series (as PowerPoint does). Axis titles are left out. Undefined when the chart
 * shows no title.
 */
export function chartTitle(pkg: OpcPackage, part: string): string | undefined {
  const chart = child(pkg.xml(part), 'chart');
  const title = child(chart, 'title');
  if (!title) return undefined;
  const text = child(title, 'tx');
  if (text) {
    // `c:rich` or `c:strRef` in a chart; `cx:txData` in the newer chart parts (waterfall, treemap, ...).
    const own =
      flatText(child(text, 'rich')) || cachedText(child(text, 'strRef')) || cachedText(child(text, 'txData'));
    return own || undefined;
  }
  if (path(chart, 'autoTitleDeleted')?.attributes.val === '1') return undefined;
  const series = seriesOf(chart);
  return series.length === 1 ? cachedText(path(series[0], 'tx')) || undefined : undefined;
}

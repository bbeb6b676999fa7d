import { flatText } from '../pptx/text-body.ts';
import { child, childrenNamed, descendants, ownText, path, type XmlElement } from '../pptx/xml.ts';
import type { ChartData } from './chart-data.ts';

/** The cached points of a reference or literal (`c:strCache`, `c:numCache`, `c:strLit`, ...), by index. */
function cachedPoints(reference: XmlElement | undefined): string[] {
  const out: string[] = [];
  for (const point of descendants(reference, 'pt')) {
    const index = Number(point.attributes.idx);
    const value = ownText(child(point, 'v')).trim();
    if (Number.isInteger(index) && index >= 0 && index < 100_000) out[index] = value;
  }
  return Array.from(out, (value) => value ?? '');
}

/** Multi-level categories keep one label per level; the innermost level names each point. */
function categoryLabels(reference: XmlElement | undefined): string[] {
  const levels = descendants(reference, 'lvl');
  if (levels.length === 0) return cachedPoints(reference);
  return cachedPoints(levels[0]);
}

function cachedText(reference: XmlElement | undefined): string {
  return descendants(reference, 'v')
    .map((value) => ownText(value).trim())
    .filter((text) => text !== '')
    .join(' ');
}

/** The series of every plot (`c:barChart/c:ser`, `c:lineChart/c:ser`, ...), in order. */
function seriesOf(chart: XmlElement | undefined): XmlElement[] {
  const plots = path(chart, 'plotArea')?.children ?? [];
  return plots.flatMap((plot) => (typeof plot === 'string' ? [] : childrenNamed(plot, 'ser')));
}

function titleOf(chart: XmlElement | undefined, series: XmlElement[]): string | undefined {
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
  // A title without text of its own shows the series name when there is one series (as Office does).
  return series.length === 1 ? cachedText(path(series[0], 'tx')) || undefined : undefined;
}

/** Office 2016 charts (`cx:chartSpace`): data in `cx:chartData/cx:data`, series point to it by id. */
function readChartEx(space: XmlElement): ChartData {
  const chart = child(space, 'chart');
  const data = new Map<string, XmlElement>();
  for (const entry of childrenNamed(path(space, 'chartData'), 'data'))
    data.set(entry.attributes.id ?? '', entry);
  const plotSeries = descendants(path(chart, 'plotArea'), 'series');
  let categories: string[] = [];
  const series = plotSeries.map((s, i) => {
    const source = data.get(child(s, 'dataId')?.attributes.val ?? '');
    const dims = [...childrenNamed(source, 'strDim'), ...childrenNamed(source, 'numDim')];
    const values = cachedPoints(
      dims.find((d) => d.attributes.type === 'val' || d.attributes.type === 'size'),
    );
    if (categories.length === 0) categories = cachedPoints(dims.find((d) => d.attributes.type === 'cat'));
    return { name: cachedText(child(s, 'tx')) || `Series ${i + 1}`, values };
  });
  return { title: titleOf(chart, plotSeries), categories, series };
}

/**
 * What a DrawingML chart part (`c:chartSpace`, or `cx:chartSpace` of Office 2016 charts) shows, from
 * the values cached in it: its title (rich text, the cell it refers to, or the lone series' name;
 * axis titles left out), category labels (`c:cat`, `c:xVal` of scatter charts) and each series'
 * name (`c:tx`) and values (`c:val`, `c:yVal`). Undefined for a part that is no chart.
 */
export function readOoxmlChart(space: XmlElement | undefined): ChartData | undefined {
  if (space?.name !== 'chartSpace') return undefined;
  if (child(space, 'chartData')) return readChartEx(space);
  const chart = child(space, 'chart');
  const plotSeries = seriesOf(chart);
  let categories: string[] = [];
  const series = plotSeries.map((s, i) => {
    const labels = categoryLabels(child(s, 'cat') ?? child(s, 'xVal'));
    if (labels.length > categories.length) categories = labels;
    return {
      name: cachedText(child(s, 'tx')) || `Series ${i + 1}`,
      values: cachedPoints(child(s, 'val') ?? child(s, 'yVal')),
    };
  });
  return { title: titleOf(chart, plotSeries), categories, series };
}

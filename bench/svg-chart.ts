/** One panel of a chart: a title, its unit, and series of (x, y) points sharing the x axis. */
export interface Panel {
  title: string;
  unit: string;
  series: { name: string; points: [number, number][] }[];
}

const COLOURS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df'];
const W = 340;
const H = 220;
const PAD = { left: 52, right: 12, top: 28, bottom: 34 };

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= value) return m * step;
  return 10 * step;
}

const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(Number(n.toPrecision(3))));
const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function panelSvg(panel: Panel, dx: number, dy: number): string {
  const points = panel.series.flatMap((s) => s.points);
  const xMax = niceMax(Math.max(...points.map(([x]) => x)));
  const yMax = niceMax(Math.max(...points.map(([, y]) => y)));
  const px = (x: number) => dx + PAD.left + (x / xMax) * (W - PAD.left - PAD.right);
  const py = (y: number) => dy + H - PAD.bottom - (y / yMax) * (H - PAD.top - PAD.bottom);
  const out = [
    `<text x="${dx + PAD.left}" y="${dy + 16}" font-weight="bold">${xmlText(panel.title)} (${xmlText(panel.unit)})</text>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(xMax)}" y2="${py(0)}" stroke="#888"/>`,
    `<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(yMax)}" stroke="#888"/>`,
  ];
  for (const f of [0, 0.5, 1]) {
    out.push(`<text x="${px(0) - 6}" y="${py(yMax * f) + 4}" text-anchor="end">${label(yMax * f)}</text>`);
    out.push(`<text x="${px(xMax * f)}" y="${py(0) + 16}" text-anchor="middle">${label(xMax * f)}</text>`);
  }
  panel.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const path = series.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const [x, y] of series.points) {
      out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${colour}"/>`);
    }
    out.push(
      `<text x="${dx + W - PAD.right}" y="${dy + PAD.top + 4 + i * 14}" text-anchor="end" fill="${colour}">${xmlText(series.name)}</text>`,
    );
  });
  return out.join('\n');
}

/**
 * Small line charts side by side, two per row, as one self-contained SVG (x axes start at 0, so a
 * straight line through the origin is linear growth).
 */
export function lineCharts(panels: Panel[], caption: string): string {
  const rows = Math.ceil(panels.length / 2);
  const width = 2 * W;
  const height = rows * H + 30;
  const body = panels.map((panel, i) => panelSvg(panel, (i % 2) * W, Math.floor(i / 2) * H)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">
<title>${xmlText(panels.map((p) => p.title).join(', '))}: ${xmlText(caption)}</title>
<rect width="100%" height="100%" fill="#fff"/>
${body}
<text x="${width / 2}" y="${height - 10}" text-anchor="middle" fill="#555">${xmlText(caption)}</text>
</svg>
`;
}

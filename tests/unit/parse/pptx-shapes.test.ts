import { describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parsePptx } from '#shared/parse/pptx/index.ts';
import type { ParsedDocument, TreeNode } from '#shared/parse/types.ts';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';
import { pngBytes, zipBytes } from './fixtures.ts';
import { emfHeader, pptxBytes, rewritePptx } from './pptx-fixtures.ts';

/** Hand-written shape trees put into a generated one-slide deck, for what pptxgenjs cannot write. */

const SLIDE = 'ppt/slides/slide1.xml';
const SLIDE_RELS = 'ppt/slides/_rels/slide1.xml.rels';

function p(text: string, properties = ''): string {
  return `<a:p>${properties}<a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p>`;
}

function sp(paragraphs: string, placeholder = ''): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="9" name="Shape"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`;
}

function group(...shapes: string[]): string {
  return `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="20" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes.join('')}</p:grpSp>`;
}

function pic(blip: string, description: string): string {
  return `<p:pic><p:nvPicPr><p:cNvPr id="30" name="Picture" descr="${description}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill>${blip}</p:blipFill><p:spPr/></p:pic>`;
}

function frame(graphicData: string): string {
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="40" name="Frame"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="x">${graphicData}</a:graphicData></a:graphic></p:graphicFrame>`;
}

function relationship(id: string, type: string, target: string, external = false): string {
  return `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"${external ? ' TargetMode="External"' : ''}/>`;
}

const TITLE = '<p:ph type="title"/>';

/** A one-slide deck whose shape tree is `shapes`, with extra slide relationships and parts. */
async function slideBytes(
  shapes: string,
  relationships = '',
  parts: { name: string; data: string | Uint8Array }[] = [],
): Promise<Uint8Array> {
  const base = await pptxBytes((deck) => {
    deck.addSlide().addText('Placeholder text', { x: 1, y: 1, w: 4, h: 1 });
  });
  return rewritePptx(
    base,
    (name, xml) => {
      if (name === SLIDE) return xml.replace(/(<\/p:grpSpPr>).*(<\/p:spTree>)/s, `$1${shapes}$2`);
      if (name === SLIDE_RELS) return xml.replace('</Relationships>', `${relationships}</Relationships>`);
      return undefined;
    },
    parts,
  );
}

async function slideWith(...args: Parameters<typeof slideBytes>): Promise<ParsedDocument> {
  return parsePptx({ bytes: await slideBytes(...args), filename: 'deck.pptx' });
}

/** The archive with one part re-encoded as UTF-16LE with a byte-order mark. */
function rewriteUtf16(bytes: Uint8Array, part: string): Uint8Array {
  const entries = readZipDirectory(bytes).map((entry) => {
    const data = new Uint8Array(readZipEntry(bytes, entry, 1 << 24));
    if (entry.name !== part) return { name: entry.name, data, deflate: true };
    const xml = new TextDecoder().decode(data).replace('encoding="UTF-8"', 'encoding="UTF-16"');
    return {
      name: entry.name,
      data: new Uint8Array([0xff, 0xfe, ...Buffer.from(xml, 'utf16le')]),
      deflate: true,
    };
  });
  return zipBytes(entries);
}

function slideOf(document: ParsedDocument): { title: string; children: TreeNode[] } {
  const [section] = document.children;
  if (section?.type !== 'section') throw new Error('expected a slide section');
  return section;
}

function texts(document: ParsedDocument): string[] {
  return slideOf(document).children.map((node) => {
    if (node.type === 'section') return `section:${node.title}`;
    return node.type === 'image' ? `image:${node.name}` : node.text;
  });
}

describe('parsePptx shapes', () => {
  it('reads group shapes recursively and markup-compatibility blocks by their choice, else their fallback', async () => {
    const document = await slideWith(
      [
        sp(p('Plan'), TITLE),
        group(sp(p('Inside the group')), group(sp(p('Nested deeper')))),
        sp(p('After the group')),
        `<mc:AlternateContent><mc:Choice Requires="p14">${sp(p('Chosen'))}</mc:Choice><mc:Fallback>${sp(p('Not this'))}</mc:Fallback></mc:AlternateContent>`,
        `<mc:AlternateContent><mc:Fallback>${sp(p('Fallback used'))}</mc:Fallback></mc:AlternateContent>`,
      ].join(''),
    );

    expect(slideOf(document).title).toBe('Plan');
    expect(texts(document)).toEqual([
      'Inside the group',
      'Nested deeper',
      'After the group',
      'Chosen',
      'Fallback used',
    ]);
  });

  it('lists a body placeholder’s paragraphs by their level, and numbers auto-numbered ones', async () => {
    const document = await slideWith(
      [
        sp(p('Goals') + p('Grow') + p('Abroad', '<a:pPr lvl="1"/>') + p('Hire'), '<p:ph idx="1"/>'),
        sp(p('One idea only'), '<p:ph type="body" idx="2"/>'),
        sp(
          p('Steps', '<a:pPr><a:buNone/></a:pPr>') +
            p('Plan', '<a:pPr lvl="1"><a:buAutoNum type="arabicPeriod"/></a:pPr>') +
            p('Ship', '<a:pPr lvl="1"><a:buAutoNum type="arabicPeriod"/></a:pPr>'),
        ),
      ].join(''),
    );

    expect(slideOf(document).children).toEqual([
      {
        type: 'paragraph',
        text: '- Grow\n  - Abroad\n- Hire',
        metadata: { kind: 'list', ordered: false, slide: 1 },
      },
      { type: 'paragraph', text: 'One idea only', metadata: { slide: 1 } },
      { type: 'paragraph', text: 'Steps', metadata: { slide: 1 } },
      { type: 'paragraph', text: '1. Plan\n2. Ship', metadata: { kind: 'list', ordered: true, slide: 1 } },
    ]);
    // Without a title placeholder, the first line of the first text titles the slide.
    expect(slideOf(document).title).toBe('Goals');
  });

  it('splits a text box at empty paragraphs, keeps line breaks and field text, and skips footers', async () => {
    const document = await slideWith(
      [
        sp(p('Agenda'), TITLE),
        sp(
          `${p('First block')}<a:p><a:r><a:t>line one</a:t></a:r><a:br/><a:r><a:t>line two</a:t></a:r></a:p><a:p/>${p('Second block')}<a:p><a:fld id="{1}" type="datetime1"><a:t>5/1/2025</a:t></a:fld></a:p>`,
        ),
        sp(p('Confidential'), '<p:ph type="ftr" idx="11"/>'),
        sp(p('7'), '<p:ph type="sldNum" idx="12"/>'),
      ].join(''),
    );

    expect(texts(document)).toEqual(['First block\nline one\nline two', 'Second block\n5/1/2025']);
  });

  it('titles a slide by the start of a long first line and keeps the line whole', async () => {
    const long = `${'word '.repeat(30)}end`;
    const document = await slideWith(sp(p(long)));

    expect(slideOf(document).title).toBe(`${'word '.repeat(19)}word…`);
    expect(texts(document)).toEqual([long]);
  });

  it('keeps an EMF picture with a warning and never reads a linked one', async () => {
    const document = await slideWith(
      [
        pic('<a:blip r:embed="rId90"/>', 'Org chart'),
        pic('<a:blip r:link="rId91"/>', 'Linked logo'),
        pic('<a:blip r:embed="rId92"/>', 'Remote photo'),
      ].join(''),
      relationship('rId90', 'image', '../media/chart.emf') +
        relationship('rId91', 'image', 'file:///etc/passwd', true) +
        relationship('rId92', 'image', 'https://example.com/photo.png', true),
      [{ name: 'ppt/media/chart.emf', data: emfHeader() }],
    );

    expect(slideOf(document).children).toEqual([
      { type: 'image', name: 'img_001.emf', alt: 'Org chart', metadata: { slide: 1 } },
    ]);
    expect(document.images).toEqual([
      { name: 'img_001.emf', bytes: emfHeader(), mime: 'image/emf', source: 'ppt/media/chart.emf' },
    ]);
    expect(document.warnings).toEqual([
      'img_001.emf is image/emf, which cannot be previewed; it is kept as it is',
      'image "Linked logo" on slide 1 skipped: it is linked, not embedded, and linked images are never read',
      'image "Remote photo" on slide 1 skipped: it is linked, not embedded, and linked images are never read',
    ]);
  });

  it('takes chart titles from rich text, a cell reference, the only series or a newer chart part, and SmartArt text', async () => {
    const chart = (inner: string) =>
      `<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart>${inner}<c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>Revenue</c:v></c:pt></c:strCache></c:strRef></c:tx></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>`;
    const diagram = `<dgm:dataModel xmlns:dgm="d" xmlns:a="a"><dgm:ptLst><dgm:pt modelId="0" type="doc"><dgm:t><a:p><a:r><a:t>Not a box</a:t></a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:t>Collect</a:t></a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="2" type="parTrans"/><dgm:pt modelId="3"><dgm:t><a:p><a:r><a:t>Decide</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>`;
    const document = await slideWith(
      [
        frame('<c:chart r:id="rId81"/>'),
        frame('<c:chart r:id="rId82"/>'),
        frame('<c:chart r:id="rId83"/>'),
        frame('<c:chart r:id="rId84"/>'),
        frame('<dgm:relIds r:dm="rId85" r:lo="rId0" r:qs="rId0" r:cs="rId0"/>'),
        `<mc:AlternateContent><mc:Choice Requires="cx1">${frame('<cx:chart r:id="rId86"/>')}</mc:Choice><mc:Fallback>${sp(p('This chart isn’t available in your version of PowerPoint'))}</mc:Fallback></mc:AlternateContent>`,
      ].join(''),
      relationship('rId81', 'chart', '/ppt/charts/chart81.xml') +
        relationship('rId82', 'chart', '../charts/chart82.xml') +
        relationship('rId83', 'chart', '../charts/chart83.xml') +
        relationship('rId84', 'chart', '../charts/chart84.xml') +
        relationship('rId85', 'diagramData', '../diagrams/data1.xml') +
        relationship('rId86', 'chartEx', '../charts/chartEx1.xml'),
      [
        {
          name: 'ppt/charts/chart81.xml',
          data: chart(
            '<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales 2024</a:t></a:r></a:p></c:rich></c:tx></c:title>',
          ),
        },
        {
          name: 'ppt/charts/chart82.xml',
          data: chart(
            '<c:title><c:tx><c:strRef><c:f>Sheet1!$A$1</c:f><c:strCache><c:pt idx="0"><c:v>Costs</c:v></c:pt></c:strCache></c:strRef></c:tx></c:title>',
          ),
        },
        { name: 'ppt/charts/chart83.xml', data: chart('<c:title/><c:autoTitleDeleted val="0"/>') },
        { name: 'ppt/charts/chart84.xml', data: chart('<c:autoTitleDeleted val="1"/>') },
        { name: 'ppt/diagrams/data1.xml', data: diagram },
        {
          name: 'ppt/charts/chartEx1.xml',
          data: '<cx:chartSpace xmlns:cx="cx"><cx:chart><cx:title><cx:tx><cx:txData><cx:v>Waterfall 2024</cx:v></cx:txData></cx:tx></cx:title></cx:chart></cx:chartSpace>',
        },
      ],
    );

    expect(slideOf(document).children).toEqual([
      { type: 'paragraph', text: 'Sales 2024', metadata: { slide: 1, kind: 'chart' } },
      { type: 'paragraph', text: 'Costs', metadata: { slide: 1, kind: 'chart' } },
      { type: 'paragraph', text: 'Revenue', metadata: { slide: 1, kind: 'chart' } },
      { type: 'paragraph', text: 'Collect\nDecide', metadata: { slide: 1, kind: 'diagram' } },
      { type: 'paragraph', text: 'Waterfall 2024', metadata: { slide: 1, kind: 'chart' } },
    ]);
  });

  it('reads merged table cells: merged from above repeats the text, merged from the left stays empty', async () => {
    const cell = (text: string, attributes = '') =>
      `<a:tc${attributes}><a:txBody><a:bodyPr/>${text ? p(text) : '<a:p/>'}</a:txBody><a:tcPr/></a:tc>`;
    const table = `<a:tbl><a:tr h="1">${cell('Team', ' rowSpan="2"')}${cell('Budget', ' gridSpan="2"')}${cell('', ' hMerge="1"')}</a:tr><a:tr h="1">${cell('', ' vMerge="1"')}${cell('2024')}${cell('2025')}</a:tr><a:tr h="1">${cell('')}${cell('')}${cell('')}</a:tr></a:tbl>`;
    const document = await slideWith(frame(table));

    expect(slideOf(document).children).toEqual([
      {
        type: 'table',
        text: '| Team | Budget |  |\n| --- | --- | --- |\n| Team | 2024 | 2025 |',
        rows: [
          ['Team', 'Budget', ''],
          ['Team', '2024', '2025'],
        ],
        metadata: { slide: 1 },
      },
    ]);
  });

  it('reads a picture shown several times once, and stops extracting when the images reach the size limit', async () => {
    const picture = new Uint8Array(64 * 1024);
    picture.set(pngBytes(8, 8));
    const bytes = await slideBytes(
      [
        pic('<a:blip r:embed="rId70"/>', 'Logo'),
        pic('<a:blip r:embed="rId70"/>', 'Logo'),
        pic('<a:blip r:embed="rId70"/>', 'Logo'),
      ].join(''),
      relationship('rId70', 'image', '../media/logo.png'),
      [{ name: 'ppt/media/logo.png', data: picture }],
    );
    const archiveBytes = readZipDirectory(bytes).reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    // The archive is within the limit; three copies of the picture are not.
    const limits = { ...DEFAULT_PARSE_LIMITS, maxUncompressedBytes: archiveBytes + picture.length };
    const document = await parsePptx({ bytes, filename: 'deck.pptx', limits });

    expect(document.images.map((image) => image.name)).toEqual(['img_001.png', 'img_002.png']);
    expect(document.images[0]?.bytes).toBe(document.images[1]?.bytes);
    expect(document.warnings).toEqual([
      `image "Logo" on slide 1 skipped: the presentation's images exceed ${Math.round(limits.maxUncompressedBytes / 1024)} KB (limits.maxUncompressedBytes)`,
    ]);
  });

  it('reads a slide part written in UTF-16, as the packaging conventions allow', async () => {
    const utf16 = rewriteUtf16(await slideBytes(sp(p('Überblick 概要'), TITLE)), SLIDE);

    expect(slideOf(await parsePptx({ bytes: utf16, filename: 'deck.pptx' })).title).toBe('Überblick 概要');
  });

  it('finds parts whose names differ in case or use backslashes, as some zip tools write them', async () => {
    const bytes = await slideBytes(sp(p('Renamed'), TITLE));
    const renamed = zipBytes(
      readZipDirectory(bytes).map((entry) => ({
        name: entry.name.startsWith('ppt/slides/')
          ? entry.name.replaceAll('/', '\\').toUpperCase()
          : entry.name,
        data: new Uint8Array(readZipEntry(bytes, entry, 1 << 24)),
        deflate: true,
      })),
    );

    expect(slideOf(await parsePptx({ bytes: renamed, filename: 'deck.pptx' })).title).toBe('Renamed');
  });
});

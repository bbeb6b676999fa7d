import { chartLeaves } from '../chart/chart-data.ts';
import { readOoxmlChart } from '../chart/ooxml-chart.ts';
import { diagramText } from '../pptx/diagram.ts';
import { type OpcPackage, openPackage } from '../pptx/package.ts';
import { sizeText } from '../pptx/size-text.ts';
import { parseXml } from '../pptx/xml.ts';
import { readZipDirectory } from '../zip.ts';
import { type BodyExtra, rewriteBody } from './body-rewrite.ts';
import { type FirstPage, firstPage } from './first-page.ts';
import { createNumberer } from './numbering.ts';
import { ommlText } from './omml.ts';

/** The archive interface mammoth opens documents through (its `{ file }` input). */
export interface MammothFile {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<string | Uint8Array>;
}

/** A Word package ready for mammoth, with what the body rewrite put at its bookmarks. */
export interface WordPackage {
  file: MammothFile;
  pkg: OpcPackage;
  /** The main document part (`word/document.xml` unless the package says otherwise). */
  main: string;
  extras: Map<string, BodyExtra>;
  /** The first page's header and footer, which mammoth does not read. */
  firstPage: FirstPage;
}

/** V8's longest string (about 512 MiB): a larger part could never be decoded, so it is not inflated. */
const MAX_STRING_BYTES = 0x1fffffe8;

/** Numbering and styles keep their run properties out: only list and paragraph properties count. */
const NUMBERING_SKIP: ReadonlySet<string> = new Set(['rPr']);

/**
 * Opens a .docx for mammoth through the project's ZIP reader, its main part rewritten
 * (`rewriteBody`: equations, text boxes, charts, SmartArt, heading numbers) so that mammoth's model
 * keeps them. Throws `DamagedZipError` when the archive cannot be read.
 */
export function openWordPackage(bytes: Uint8Array, maxXmlBytes: number): WordPackage {
  const entries = readZipDirectory(bytes);
  const pkg = openPackage(bytes, entries, maxXmlBytes);
  const officeDocument = [...pkg.relationships('').values()].find((rel) => rel.type === 'officeDocument');
  const main = officeDocument?.target ?? 'word/document.xml';
  const rels = pkg.relationships(main);
  const partOf = (type: string) =>
    [...rels.values()].find((rel) => rel.type === type && !rel.external)?.target;
  let extras = new Map<string, BodyExtra>();
  const overrides = new Map<string, string>();
  const declared =
    entries.find((entry) => entry.name.toLowerCase() === main.toLowerCase())?.uncompressedSize ?? 0;
  const limit = Math.min(maxXmlBytes, MAX_STRING_BYTES);
  if (declared > limit)
    throw new Error(`its main part ${main} inflates to ${sizeText(declared)}, more than ${sizeText(limit)}`);
  const bytesOfBody = pkg.bytes(main);
  let pageFurniture: FirstPage = { header: '', footer: '' };
  if (bytesOfBody) {
    const body = new TextDecoder().decode(bytesOfBody);
    pageFurniture = firstPage(pkg, main, body);
    const numberingPart = partOf('numbering');
    const stylesPart = partOf('styles');
    const numbering = numberingPart ? pkg.xml(numberingPart, NUMBERING_SKIP) : undefined;
    const rewritten = rewriteBody(body, {
      number: numbering
        ? createNumberer(numbering, stylesPart ? pkg.xml(stylesPart, NUMBERING_SKIP) : undefined)
        : undefined,
      chart: (relId) => {
        const rel = rels.get(relId);
        const data = rel && !rel.external ? readOoxmlChart(pkg.xml(rel.target)) : undefined;
        return data ? chartLeaves(data, {}) : undefined;
      },
      diagram: (relId) => diagramText(pkg, rels, relId),
      math: (xml) => ommlText(parseXml(xml)),
    });
    extras = rewritten.extras;
    // The main part is handed over as text either way: mammoth would otherwise inflate it again.
    overrides.set(main, rewritten.xml);
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const file: MammothFile = {
    exists: (name) => byName.has(name),
    read: async (name, encoding) => {
      const override = overrides.get(name);
      if (override !== undefined) return encoding ? override : new TextEncoder().encode(override);
      const data = pkg.bytes(name);
      if (!data) throw new Error(`the package has no part ${name}`);
      if (encoding === 'base64') return Buffer.from(data).toString('base64');
      return encoding ? new TextDecoder(encoding).decode(data) : data;
    },
  };
  return { file, pkg, main, extras, firstPage: pageFurniture };
}

import type { OpcPackage } from '../pptx/package.ts';
import { descendants, ownText } from '../pptx/xml.ts';
import { elementEnd } from './element-end.ts';

/** The header and footer text of a document's first page ('' where there is none). */
export interface FirstPage {
  header: string;
  footer: string;
}

const TITLE_PAGE = /<w:titlePg(?:\s+w:val="(?:1|true|on)")?\s*\/>/;

function partText(pkg: OpcPackage, part: string | undefined): string {
  if (!part) return '';
  return descendants(pkg.xml(part), 'p')
    .map((paragraph) => descendants(paragraph, 't').map(ownText).join('').replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * The header and footer Word prints on the first page: the first section's first-page ones when it
 * has a distinct title page (`w:titlePg`), else its default ones. mammoth reads no headers; the other
 * pages' headers repeat on every page and are left out.
 */
export function firstPage(pkg: OpcPackage, main: string, body: string): FirstPage {
  const at = body.search(/<w:sectPr[\s>]/);
  if (at < 0) return { header: '', footer: '' };
  const section = body.slice(at, elementEnd(body, at, 'w:sectPr'));
  const type = TITLE_PAGE.test(section) ? 'first' : 'default';
  const rels = pkg.relationships(main);
  const reference = (kind: 'header' | 'footer') => {
    for (const tag of section.match(new RegExp(`<w:${kind}Reference\\b[^>]*>`, 'g')) ?? []) {
      if (/\bw:type="([^"]*)"/.exec(tag)?.[1] !== type) continue;
      const rel = rels.get(/\br:id="([^"]*)"/.exec(tag)?.[1] ?? '');
      if (rel && !rel.external) return rel.target;
    }
    return undefined;
  };
  return { header: partText(pkg, reference('header')), footer: partText(pkg, reference('footer')) };
}

import type { ParagraphNode } from '../types.ts';
import type { OpcPackage, Relationship } from './package.ts';
import { textLines } from './text-body.ts';
import { textLeaves } from './text-leaves.ts';
import { child, childrenNamed, path } from './xml.ts';

/**
 * A slide's speaker notes as paragraphs with `metadata.kind: 'notes'`, directly under the slide's
 * section so that a passage found in the notes cites the slide it belongs to. Only the notes
 * placeholder (`p:ph type="body"`, or untyped) is read: the notes page's other shapes are its slide
 * image, header, footer and page number. Empty paragraphs separate blocks.
 */
export function notesLeaves(
  pkg: OpcPackage,
  slideRels: Map<string, Relationship>,
  metadata: Record<string, unknown>,
): ParagraphNode[] {
  const rel = [...slideRels.values()].find(
    (candidate) => candidate.type === 'notesSlide' && !candidate.external,
  );
  if (!rel) return [];
  const tree = path(pkg.xml(rel.target), 'cSld', 'spTree');
  const out: ParagraphNode[] = [];
  for (const shape of childrenNamed(tree, 'sp')) {
    const placeholder = path(shape, 'nvSpPr', 'nvPr', 'ph');
    if (!placeholder || (placeholder.attributes.type ?? 'body') !== 'body') continue;
    out.push(...textLeaves(textLines(child(shape, 'txBody')), false, { ...metadata, kind: 'notes' }));
  }
  return out;
}

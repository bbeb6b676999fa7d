import type { OpcPackage, Relationship } from './package.ts';
import { flatText } from './text-body.ts';
import { child, childrenNamed, path } from './xml.ts';

/**
 * The text of a SmartArt diagram, which it keeps in its data part (the relationship `r:dm` of
 * `dgm:relIds` names it): one line per box (`dgm:pt` of type node), in the data's order. Empty when
 * the part is missing or external.
 */
export function diagramText(pkg: OpcPackage, rels: Map<string, Relationship>, dataRelId: string): string {
  const rel = rels.get(dataRelId);
  if (!rel || rel.external) return '';
  return childrenNamed(path(pkg.xml(rel.target), 'ptLst'), 'pt')
    .filter((point) => (point.attributes.type ?? 'node') === 'node')
    .map((point) => flatText(child(point, 't')))
    .filter((text) => text !== '')
    .join('\n');
}

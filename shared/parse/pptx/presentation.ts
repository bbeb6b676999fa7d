import type { OpcPackage } from './package.ts';
import { childrenNamed, path } from './xml.ts';

/** The presentation part and its slides' parts, in presentation order. */
export interface SlideList {
  presentationPart: string;
  /** Slide part paths in `sldIdLst` order; a missing part is listed with `missing: true`. */
  slides: { part: string; missing: boolean }[];
}

const DEFAULT_PRESENTATION = 'ppt/presentation.xml';

/** The main part named by the package relationships (`officeDocument`), else the usual path. */
function presentationPart(pkg: OpcPackage): string | undefined {
  for (const rel of pkg.relationships('').values()) {
    if (rel.type === 'officeDocument' && !rel.external && pkg.has(rel.target)) return rel.target;
  }
  return pkg.has(DEFAULT_PRESENTATION) ? DEFAULT_PRESENTATION : undefined;
}

/**
 * Lists a presentation's slides in presentation order (`p:sldIdLst` through the presentation's
 * relationships). Returns undefined when the archive has no presentation part (a `p:presentation`).
 */
export function listSlides(pkg: OpcPackage): SlideList | undefined {
  const part = presentationPart(pkg);
  const root = part ? pkg.xml(part) : undefined;
  // The package's main part may be a Word or Excel one (a mislabeled file): that is no presentation.
  if (!part || root?.name !== 'presentation') return undefined;
  const rels = pkg.relationships(part);
  const slides: SlideList['slides'] = [];
  for (const id of childrenNamed(path(root, 'sldIdLst'), 'sldId')) {
    const rel = rels.get(id.attributes['r:id'] ?? '');
    if (!rel || rel.external) {
      slides.push({ part: id.attributes['r:id'] ?? '?', missing: true });
      continue;
    }
    slides.push({ part: rel.target, missing: !pkg.has(rel.target) });
  }
  return { presentationPart: part, slides };
}

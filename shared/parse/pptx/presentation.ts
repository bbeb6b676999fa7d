import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import type { OpcPackage } from './package.ts';
import { child, childrenNamed, descendant, path, type XmlElement } from './xml.ts';

/** One slide of the presentation, in presentation order. */
export interface SlideEntry {
  /** The slide part's path (the relationship id when it could not be resolved). */
  part: string;
  missing: boolean;
  /** The named section (PowerPoint's "Add Section") the slide belongs to, when the deck has several. */
  group?: string;
}

const DEFAULT_PRESENTATION = 'ppt/presentation.xml';
/** The presentation part is small; its sections live in an extension (`p14:sectionLst`), so keep those. */
const KEEP_ALL: ReadonlySet<string> = new Set();

/** The main part named by the package relationships (`officeDocument`), else the usual path. */
function presentationPart(pkg: OpcPackage): string | undefined {
  for (const rel of pkg.relationships('').values()) {
    if (rel.type === 'officeDocument' && !rel.external && pkg.has(rel.target)) return rel.target;
  }
  return pkg.has(DEFAULT_PRESENTATION) ? DEFAULT_PRESENTATION : undefined;
}

/** Slide id -> section name, when the deck has two or more named sections (one says nothing). */
function sectionNames(presentation: XmlElement): Map<string, string> {
  const names = new Map<string, string>();
  const sections = childrenNamed(descendant(presentation, 'sectionLst'), 'section')
    .map((section) => ({
      name: collapseSpaces(section.attributes.name ?? ''),
      ids: childrenNamed(child(section, 'sldIdLst'), 'sldId').map((id) => id.attributes.id ?? ''),
    }))
    .filter((section) => section.name !== '' && section.ids.length > 0);
  if (sections.length < 2) return names;
  for (const { name, ids } of sections) for (const id of ids) if (!names.has(id)) names.set(id, name);
  return names;
}

/**
 * Lists a presentation's slides in presentation order (`p:sldIdLst` through the presentation's
 * relationships), each with its named section when there are several. Returns undefined when the
 * archive has no presentation part (a `p:presentation`).
 */
export function listSlides(pkg: OpcPackage): SlideEntry[] | undefined {
  const part = presentationPart(pkg);
  const root = part ? pkg.xml(part, KEEP_ALL) : undefined;
  // The package's main part may be a Word or Excel one (a mislabeled file): that is no presentation.
  if (!part || root?.name !== 'presentation') return undefined;
  const rels = pkg.relationships(part);
  const groups = sectionNames(root);
  return childrenNamed(path(root, 'sldIdLst'), 'sldId').map((id): SlideEntry => {
    const relId = id.attributes['r:id'] ?? '';
    const rel = rels.get(relId);
    const entry: SlideEntry =
      !rel || rel.external
        ? { part: relId || '?', missing: true }
        : { part: rel.target, missing: !pkg.has(rel.target) };
    const group = groups.get(id.attributes.id ?? '');
    if (group) entry.group = group;
    return entry;
  });
}

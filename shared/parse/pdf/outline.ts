import type { PDFDocumentProxy } from 'pdfjs-dist';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';

/** One bookmark of the PDF's outline, flattened: its title, depth (1-based), page and top, when known. */
export interface OutlineEntry {
  title: string;
  depth: number;
  page?: number;
  y?: number;
}

type OutlineNode = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>[number];

/** More bookmarks than this are not an outline a reader uses; the layout gives the headings then. */
const MAX_ENTRIES = 5_000;

async function target(
  doc: PDFDocumentProxy,
  dest: OutlineNode['dest'],
): Promise<Pick<OutlineEntry, 'page' | 'y'>> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return {};
    const [ref, mode, ...args] = explicit as [unknown, { name?: string } | undefined, ...unknown[]];
    const index =
      typeof ref === 'number'
        ? ref
        : ref && typeof ref === 'object'
          ? await doc.getPageIndex(ref as Parameters<PDFDocumentProxy['getPageIndex']>[0])
          : undefined;
    if (index === undefined) return {};
    const top =
      mode?.name === 'XYZ' ? args[1] : mode?.name === 'FitH' || mode?.name === 'FitBH' ? args[0] : undefined;
    return typeof top === 'number' ? { page: index + 1, y: top } : { page: index + 1 };
  } catch {
    return {};
  }
}

/**
 * The document's outline (bookmarks) in order, with each entry's page and, for XYZ and FitH
 * destinations, the height it points at. Empty when there is none, or when it is implausibly large.
 */
export async function readOutline(doc: PDFDocumentProxy): Promise<OutlineEntry[]> {
  const roots = await doc.getOutline().catch(() => null);
  if (!roots?.length) return [];
  const flat: { node: OutlineNode; depth: number }[] = [];
  const walk = (nodes: OutlineNode[], depth: number) => {
    for (const node of nodes) {
      if (flat.length > MAX_ENTRIES) return;
      flat.push({ node, depth });
      if (Array.isArray(node.items) && node.items.length > 0) walk(node.items as OutlineNode[], depth + 1);
    }
  };
  walk(roots, 1);
  if (flat.length > MAX_ENTRIES) return [];
  const entries: OutlineEntry[] = [];
  for (const { node, depth } of flat) {
    const title = collapseSpaces(node.title ?? '');
    if (title === '') continue;
    entries.push({ title, depth, ...(await target(doc, node.dest)) });
  }
  return entries;
}

import { reactive } from 'vue';
import { api } from './api.ts';
import { errorText } from './server-text.ts';

/** A paragraph, table or image of a section, as `GET /api/documents/{id}/sections/{section}/leaves` lists it. */
export interface SectionLeaf {
  id: string;
  kind: 'paragraph' | 'table' | 'image';
  content: string;
}

/** What is known of a section's own text: still loading, its leaves, or why they could not be read. */
export type LeavesState =
  | { state: 'loading' }
  | { state: 'loaded'; items: SectionLeaf[] }
  | { state: 'failed'; error: string };

/**
 * The text of a document's sections, fetched the first time each is opened and kept while the page
 * shows the same document version.
 */
export function useSectionLeaves() {
  const leaves = reactive(new Map<string, LeavesState>());

  async function load(documentId: string, sectionId: string): Promise<void> {
    if (leaves.has(sectionId)) return;
    leaves.set(sectionId, { state: 'loading' });
    try {
      const { items } = await api<{ items: SectionLeaf[] }>(
        `/api/documents/${documentId}/sections/${sectionId}/leaves`,
      );
      leaves.set(sectionId, { state: 'loaded', items });
    } catch (error) {
      leaves.set(sectionId, { state: 'failed', error: errorText(error) });
    }
  }

  return { leaves, load, clear: () => leaves.clear() };
}

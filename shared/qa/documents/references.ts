import type { Stage1Result } from './stage1.ts';

/** A cited paragraph or image of the documents mode (docs/spec.md#document-references). */
export interface DocumentReference {
  /** The marker without brackets, e.g. `DOC-abc12345-PARA-5`. */
  ref_id: string;
  doc_id: string;
  doc_name: string;
  chunk_type: 'text' | 'image';
  /** Text: the paragraph's full content. */
  content?: string;
  /** Image: where the client loads it, `/api/v1/documents/{doc_id}/images/img_001.png?version=n`. */
  image_url?: string;
  version: number;
  /** Present when the answer quotes this paragraph: false when a quote is not found in it. */
  verified?: boolean;
}

/** The URL the image-serving route answers for one image of one document version. */
export function imageUrl(documentId: string, filename: string, version?: number): string {
  const query = version === undefined ? '' : `?version=${version}`;
  return `/api/v1/documents/${documentId}/images/${encodeURIComponent(filename)}${query}`;
}

/**
 * The references of an answer's markers, in the markers' order (docs/spec.md#document-references):
 * text markers with their paragraph's full content, image markers with their URL. Markers that name
 * no block of the Stage-1 documents (invented by a model) are returned apart, never as references.
 */
export function resolveReferences(
  markers: string[],
  documents: Stage1Result[],
): { references: DocumentReference[]; unknown: string[] } {
  const byShortId = new Map(documents.map((doc) => [doc.shortId, doc]));
  const references: DocumentReference[] = [];
  const unknown: string[] = [];
  for (const marker of markers) {
    const doc = byShortId.get(marker.slice(4, 12));
    const block = doc?.blocks.find((b) => b.ref === marker);
    if (!doc || !block) {
      unknown.push(marker);
      continue;
    }
    const base = { ref_id: marker, doc_id: doc.documentId, doc_name: doc.name, version: doc.version };
    references.push(
      block.kind === 'text'
        ? { ...base, chunk_type: 'text', content: block.text }
        : { ...base, chunk_type: 'image', image_url: imageUrl(doc.documentId, block.filename, doc.version) },
    );
  }
  return { references, unknown };
}

/** One block of a document's Markdown rendition, in reading order, with its marker number. */
export type DocumentBlock =
  | { kind: 'text'; n: number; ref: string; text: string }
  | { kind: 'image'; n: number; ref: string; filename: string; alt: string };

/**
 * `[DOC-xxxxxxxx-PARA-n]` and `[DOC-xxxxxxxx-IMAGE-n]` (docs/spec.md#markers), anywhere in a
 * bracket list.
 */
const MARKER = /DOC-[a-f0-9]{8}-(?:PARA|IMAGE)-\d+/g;
/** A bracketed list in an answer, where markers live. */
const BRACKETS = /\[[^[\]\n]*\]/g;
/** A block that is nothing but one image link to a file beside the Markdown (`![alt](img_001.png)`). */
const IMAGE_BLOCK = /^!\[((?:\\.|[^\]\\])*)\]\(\s*<?([A-Za-z0-9_.-]+)>?\s*\)$/;

/**
 * The short id of a document in markers: the first 8 hex digits of its UUID (docs/spec.md#markers).
 *
 * @example shortDocId('3f2a9c1e-...') // '3f2a9c1e'
 */
export function shortDocId(documentId: string): string {
  return documentId.replace(/-/g, '').slice(0, 8).toLowerCase();
}

/**
 * Splits a Markdown rendition into marked blocks (docs/spec.md#markers): paragraphs separated by
 * blank lines, every heading line a block of its own, empty blocks dropped; a block that is only an
 * image link becomes an image block. Text and images are numbered separately, from 1, in order.
 * Fenced code stays one block even when it contains blank lines.
 *
 * @example splitIntoBlocks('# A\n\nHello.\n\n![chart](img_001.png)', 'abcd1234')
 * // [{ kind: 'text', ref: 'DOC-abcd1234-PARA-1', text: '# A' }, { ...PARA-2 'Hello.' }, { kind: 'image', ref: 'DOC-abcd1234-IMAGE-1', filename: 'img_001.png' }]
 */
export function splitIntoBlocks(markdown: string, shortId: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let paras = 0;
  let images = 0;
  for (const raw of rawBlocks(markdown)) {
    const text = raw.trim();
    if (!text) continue;
    const image = IMAGE_BLOCK.exec(text);
    if (image) {
      images += 1;
      blocks.push({
        kind: 'image',
        n: images,
        ref: `DOC-${shortId}-IMAGE-${images}`,
        filename: image[2] ?? '',
        alt: (image[1] ?? '').replace(/\\(.)/g, '$1'),
      });
    } else {
      paras += 1;
      blocks.push({ kind: 'text', n: paras, ref: `DOC-${shortId}-PARA-${paras}`, text });
    }
  }
  return blocks;
}

function rawBlocks(markdown: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    if (current.length) out.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      current.push(line);
      if (fenceMatch && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length)
        fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      current.push(line);
    } else if (line.trim() === '') {
      flush();
    } else if (/^#{1,6}\s/.test(line)) {
      flush();
      out.push(line);
    } else {
      current.push(line);
    }
  }
  flush();
  return out;
}

/**
 * The markers an answer uses, deduplicated, in order of first appearance
 * (docs/spec.md#document-references).
 *
 * @example extractMarkers('A [DOC-abcd1234-PARA-2]. B [DOC-abcd1234-PARA-2][DOC-abcd1234-IMAGE-1]')
 * // ['DOC-abcd1234-PARA-2', 'DOC-abcd1234-IMAGE-1']
 */
export function extractMarkers(answer: string): string[] {
  // Only inside ASCII brackets: a reference quoted from a document is neutralized (［DOC-…］).
  const lists = answer.match(BRACKETS) ?? [];
  return [...new Set(lists.flatMap((list) => list.match(MARKER) ?? []))];
}

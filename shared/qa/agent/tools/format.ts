import { stripDelimiters } from '#shared/llm/prompt-files.ts';
import { documentText } from '#shared/qa/prompt.ts';
import type { SearchHit } from '#shared/search/types.ts';

const PASSAGE_CHARS = 700;

/**
 * Passages as the agent reads them: `<document index="n" ...>text</document>` blocks with their node
 * and document ids, the document path and the relevance; delimiter tags inside the text removed, so
 * document text stays data, and its citation markers neutralized.
 */
export function passageBlocks(hits: SearchHit[], numbers: number[]): string {
  return hits
    .map((hit, i) => {
      const attrs = [
        `index="${numbers[i]}"`,
        `node_id="${hit.nodeId}"`,
        `document_id="${hit.documentId}"`,
        `source="${attribute(hit.path)}"`,
        ...(hit.relevance === undefined ? [] : [`relevance="${hit.relevance.toFixed(2)}"`]),
      ];
      return `<document ${attrs.join(' ')}>\n${clip(documentText(hit.content), PASSAGE_CHARS)}\n</document>`;
    })
    .join('\n');
}

/** Text as a double-quoted attribute value: no quotes, no delimiter tags, one line. */
export function attribute(text: string): string {
  return stripDelimiters(text).replace(/["<>]/g, "'").replace(/\s+/g, ' ');
}

/** At most `max` characters (code points), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

// html: false makes any tag in the text (from a document or a model) literal text; DOMPurify is the
// second fence in case a renderer rule ever lets markup through.
const md = new MarkdownIt({ html: false, linkify: false, breaks: true });

const SAFE_LINK = /^(https?:|mailto:|\/|#)/i;
md.validateLink = (url) => SAFE_LINK.test(url.trim());

/** Where citation markers link: `#<prefix>-<id>`, for the ids of the answer's own sources only. */
export interface CitationLinks {
  prefix: string;
  /**
   * The answer's citations and the label each marker shows: its sources' numbers (`'3'` -> `3`) and
   * references' ids (`'DOC-…-PARA-5'` -> its number among the references, so documents mode reads
   * like the others).
   */
  citations: ReadonlyMap<string, string>;
}

/**
 * Markdown to sanitized HTML: raw HTML is never interpreted, only http(s), mailto and same-site links
 * survive, and with `links` the `[n]` citation markers that name one of the answer's citations become
 * superscript links to `#<prefix>-n`.
 */
export function renderMarkdown(text: string, links?: CitationLinks): string {
  const html = md.render(text);
  return DOMPurify.sanitize(links ? linkCitations(html, links) : html, {
    USE_PROFILES: { html: true },
    FORBID_ATTR: ['style'],
  });
}

// `[3]` (passages) and `[DOC-1a2b3c4d-PARA-5]` / `[DOC-1a2b3c4d-IMAGE-2]` (documents mode,
// docs/spec.md#markers).
const MARKER = /\[(\d{1,3}|DOC-[0-9a-f]{8}-(?:PARA|IMAGE)-\d{1,5})\]/g;

/**
 * Rendered HTML with the markers that name one of `links.citations` turned into links; any other
 * marker-shaped text stays text. The server neutralizes markers inside quoted document text
 * (`［9］`), and this is the second fence: a number beyond the sources, or a reference the answer does
 * not carry, is never a link to some other source.
 *
 * @example linkCitations('<p>A [1] B [9]</p>', { prefix: 't-ref', citations: new Map([['1', '1']]) })
 * // '<p>A <sup><a class="citation" href="#t-ref-1">[1]</a></sup> B [9]</p>'
 */
export function linkCitations(html: string, links: CitationLinks): string {
  // Only in text outside tags: markers are plain text after rendering (brackets have no markup).
  return html.replace(/>([^<]*)</g, (_all, chunk: string) => {
    const linked = chunk.replace(MARKER, (marker, id: string) =>
      links.citations.has(id)
        ? `<sup><a class="citation" href="#${links.prefix}-${id}">[${links.citations.get(id)}]</a></sup>`
        : marker,
    );
    return `>${linked}<`;
  });
}

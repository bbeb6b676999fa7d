import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

// html: false makes any tag in the text (from a document or a model) literal text; DOMPurify is the
// second fence in case a renderer rule ever lets markup through.
const md = new MarkdownIt({ html: false, linkify: false, breaks: true });

const SAFE_LINK = /^(https?:|mailto:|\/|#)/i;
md.validateLink = (url) => SAFE_LINK.test(url.trim());

/**
 * Markdown to sanitized HTML: raw HTML is never interpreted, only http(s), mailto and same-site links
 * survive, and `[n]` citation markers become superscript links to `#<anchorPrefix>-n`.
 */
export function renderMarkdown(text: string, anchorPrefix?: string): string {
  let html = md.render(text);
  if (anchorPrefix) {
    // Only in text outside tags: markers are plain text after rendering (brackets have no markup).
    html = html.replace(/>([^<]*)</g, (_all, chunk: string) => `>${linkCitations(chunk, anchorPrefix)}<`);
  }
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_ATTR: ['style'] });
}

// `[3]` (passages) and `[DOC-1a2b3c4d-PARA-5]` / `[DOC-1a2b3c4d-IMAGE-2]` (documents mode,
// docs/spec.md#markers).
const MARKER = /\[(\d{1,3}|DOC-[0-9a-f]{8}-(?:PARA|IMAGE)-\d{1,5})\]/g;

function linkCitations(text: string, prefix: string): string {
  return text.replace(
    MARKER,
    (_all, id: string) => `<sup><a class="citation" href="#${prefix}-${id}">[${id}]</a></sup>`,
  );
}

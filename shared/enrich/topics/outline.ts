/** A section as topics see it: its title, summary and depth (1 = top level). */
export interface OutlineSection {
  title: string;
  summary: string | null;
  depth: number;
}

/** What a model names topics from: the document title, its summary when known, and its outline. */
export interface TopicSource {
  title: string;
  summary: string | null;
  sections: OutlineSection[];
}

/**
 * The section outline of a topic prompt: one indented `- title: summary` line per section in
 * reading order. When it exceeds `maxChars`, the deepest level is dropped until it fits, so a long
 * document is still seen whole through its upper levels; the top level alone is cut at `maxChars`.
 */
export function formatOutline(sections: readonly OutlineSection[], maxChars: number): string {
  const line = (s: OutlineSection) =>
    `${'  '.repeat(Math.max(0, s.depth - 1))}- ${s.title}${s.summary ? `: ${s.summary}` : ''}`;
  let depth = Math.max(1, ...sections.map((s) => s.depth));
  let text = sections.map(line).join('\n');
  while (text.length > maxChars && depth > 1) {
    depth -= 1;
    text = sections
      .filter((s) => s.depth <= depth)
      .map(line)
      .join('\n');
  }
  return text.slice(0, maxChars);
}

import { readFileSync } from 'node:fs';

const cache = new Map<string, string>();
/** Tags that delimit document text in prompts; removed from the text so it cannot close its block. */
const DELIMITERS = /<\/?documents?\b[^>]*>/gi;

/** The text of `shared/qa/prompts/<name>.md`, read once. */
export function loadQaPrompt(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./prompts/${name}.md`, import.meta.url), 'utf8').trim();
    cache.set(name, text);
  }
  return text;
}

/** Fills `{{key}}` placeholders; values are inserted as they are (escape data with `passagesBlock`). */
export function fillQaPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * Numbered passages as `<document index="n" source="...">text</document>` blocks, with any delimiter
 * tags inside the text or the source removed, so document text stays data.
 */
export function passagesBlock(passages: { citation: number; source: string; content: string }[]): string {
  return passages
    .map((p) => {
      const source = p.source.replace(DELIMITERS, '').replace(/"/g, "'");
      return `<document index="${p.citation}" source="${source}">\n${p.content.replace(DELIMITERS, '')}\n</document>`;
    })
    .join('\n');
}

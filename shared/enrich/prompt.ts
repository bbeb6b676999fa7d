import { readFileSync } from 'node:fs';

const cache = new Map<string, string>();
const DELIMITER = /<\/?document_content>/gi;

/** The text of `prompts/<name>.md`, read once. */
export function loadPrompt(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`./prompts/${name}.md`, import.meta.url), 'utf8').trim();
    cache.set(name, text);
  }
  return text;
}

/**
 * Fills `{{key}}` placeholders with document-derived values. The values are data: any
 * `<document_content>` delimiter inside them is removed so they cannot close the data block early.
 */
export function fillPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) =>
    key in values ? (values[key] ?? '').replace(DELIMITER, '') : whole,
  );
}

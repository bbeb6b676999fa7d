import { readFileSync } from 'node:fs';

const cache = new Map<string, string>();
/** Tags that delimit document text in prompts: `<document ...>`, `<documents>`, `<document_content>`. */
const DELIMITERS = /<\/?document(?:s|_content)?\b[^>]*>/gi;

/** A prompt file's text, trimmed, read once per process. */
export function readPromptFile(url: URL): string {
  let text = cache.get(url.href);
  if (text === undefined) {
    text = readFileSync(url, 'utf8').trim();
    cache.set(url.href, text);
  }
  return text;
}

/** Fills `{{key}}` placeholders; unknown keys stay as written. Escape document text with `stripDelimiters` first. */
export function fillPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/** Document text with any delimiter tag removed, so it cannot close its data block: it stays data. */
export function stripDelimiters(text: string): string {
  return text.replace(DELIMITERS, '');
}

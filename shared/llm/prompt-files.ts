import { readFileSync } from 'node:fs';
import { BUNDLED_PROMPTS } from './bundled-prompts.ts';

/** The repository root, which prompt paths are relative to when run from source. */
const ROOT = new URL('../../', import.meta.url);
const cache = new Map<string, string>();
/** Tags that delimit document text in prompts: `<document ...>`, `<documents>`, `<document_content>`. */
const DELIMITERS = /<\/?document(?:s|_content)?\b[^>]*>/gi;

/**
 * A prompt file's text, trimmed, read once per process: `folder` is its folder from the repository
 * root. Bundled functions carry the texts in their code (`BUNDLED_PROMPTS`); from source the file is
 * read.
 *
 * @example readPromptFile('shared/qa/prompts', 'answer')
 */
export function readPromptFile(folder: string, name: string): string {
  const path = `${folder}/${name}.md`;
  let text = cache.get(path);
  if (text === undefined) {
    text = (BUNDLED_PROMPTS[path] ?? readFileSync(new URL(path, ROOT), 'utf8')).trim();
    cache.set(path, text);
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

import { fillPrompt as fill, readPromptFile, stripDelimiters } from '../llm/prompt-files.ts';

/** The text of `shared/enrich/prompts/<name>.md`, read once. */
export function loadPrompt(name: string): string {
  return readPromptFile('shared/enrich/prompts', name);
}

/**
 * Fills `{{key}}` placeholders with document-derived values. The values are data: delimiter tags
 * inside them are removed so they cannot close the data block early.
 */
export function fillPrompt(template: string, values: Record<string, string>): string {
  return fill(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, stripDelimiters(v)])));
}

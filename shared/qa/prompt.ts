import { readPromptFile, stripDelimiters } from '../llm/prompt-files.ts';

/** The text of `shared/qa/prompts/<name>.md`, read once. */
export function loadQaPrompt(name: string): string {
  return readPromptFile('shared/qa/prompts', name);
}

/**
 * Numbered passages as `<document index="n" source="...">text</document>` blocks, with any delimiter
 * tags inside the text or the source removed, so document text stays data.
 */
export function passagesBlock(passages: { citation: number; source: string; content: string }[]): string {
  return passages
    .map((p) => {
      const source = stripDelimiters(p.source).replace(/"/g, "'");
      return `<document index="${p.citation}" source="${source}">\n${stripDelimiters(p.content)}\n</document>`;
    })
    .join('\n');
}

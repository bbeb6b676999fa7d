import { readPromptFile, stripDelimiters } from '../llm/prompt-files.ts';
import { neutralizeMarkers } from '../text/citation-markers.ts';

/** The text of `shared/qa/prompts/<name>.md`, read once. */
export function loadQaPrompt(name: string): string {
  return readPromptFile('shared/qa/prompts', name);
}

/**
 * Document text as a prompt quotes it: delimiter tags removed (document text stays data) and
 * citation markers neutralized (a marker in a document never reaches the answer as a citation).
 */
export function documentText(text: string): string {
  return neutralizeMarkers(stripDelimiters(text));
}

/**
 * Numbered passages as `<document index="n" source="...">text</document>` blocks, with any delimiter
 * tags inside the text or the source removed, so document text stays data, and its markers
 * neutralized (`documentText`).
 */
export function passagesBlock(passages: { citation: number; source: string; content: string }[]): string {
  return passages
    .map((p) => {
      const source = stripDelimiters(p.source).replace(/"/g, "'");
      return `<document index="${p.citation}" source="${source}">\n${documentText(p.content)}\n</document>`;
    })
    .join('\n');
}

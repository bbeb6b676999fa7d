import { extractiveTitle, SECTION_TITLE, TITLE_SUFFIX } from './extractive-title.ts';
import { keyTermTitle } from './key-terms.ts';

/** What a title is asked for. */
export interface TitleRequest {
  /** The text the section holds (paragraphs, in reading order). */
  texts: string[];
  /** Set when an author's numbering-only title ("一、") gets a descriptive suffix. */
  numbering?: string;
  /** Titles of the chunks a grouping section gathers. */
  childTitles?: string[];
}

/**
 * Names sections: a chat model when one is configured, else extractive titles (`createTitler` in
 * enrich/structure/).
 */
export interface Titler {
  titles(requests: readonly TitleRequest[]): Promise<string[]>;
}

/**
 * The title without a model: `extractiveTitle`, or for a grouping section the key terms its parts
 * share (`keyTermTitle`).
 */
export function offlineTitle(request: TitleRequest): string {
  if (request.childTitles?.length) return keyTermTitle(request.texts) || extractiveTitle(request.texts);
  return extractiveTitle(request.texts, request.numbering ? TITLE_SUFFIX : SECTION_TITLE);
}

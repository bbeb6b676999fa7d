import { z } from 'zod';
import { mapLimit } from '#shared/async/limiter.ts';
import { reasonOf } from '#shared/errors.ts';
import { fillPrompt, readPromptFile, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ChatModel } from '#shared/llm/types.ts';
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

/** Names sections: a chat model when one is configured, else extractive titles. */
export interface Titler {
  titles(requests: readonly TitleRequest[]): Promise<string[]>;
}

/** A model sees the start of a section: enough to name it, bounded in tokens. */
const MAX_PROMPT_CHARS = 3_000;
/** Sections titled at once by a chat model (the provider also limits itself). */
const MODEL_CONCURRENCY = 4;
/** A model title longer than this is not a heading. */
const MAX_TITLE_CHARS = 80;

/** Sentence marks a heading does not end with. */
const END_MARKS = /[。．.!！?？;；:：,，、]+$/u;

const titleSchema = z.object({ title: z.string().trim().min(1).max(MAX_TITLE_CHARS) });

const prompt = (name: string) => readPromptFile('shared/parse/structure/prompts', name);

/**
 * The titler for the providers in force. Offline (`chat` undefined): `extractiveTitle`, or for a
 * grouping section the key terms its parts share (`keyTermTitle`). With a chat
 * model: a short heading from `chat.structured`; when the model fails for a section, that section
 * gets its extractive title and a warning is recorded (a parse never fails for want of a title).
 */
export function createTitler(chat: ChatModel | undefined, documentTitle: string, warnings: string[]): Titler {
  const offline = (request: TitleRequest) => {
    if (request.childTitles?.length) return keyTermTitle(request.texts) || extractiveTitle(request.texts);
    return extractiveTitle(request.texts, request.numbering ? TITLE_SUFFIX : SECTION_TITLE);
  };
  if (!chat) return { titles: async (requests) => requests.map(offline) };
  let warned = false;
  return {
    async titles(requests) {
      return mapLimit([...requests], MODEL_CONCURRENCY, async (request) => {
        try {
          return (await modelTitle(chat, documentTitle, request)) || offline(request);
        } catch (error) {
          if (!warned)
            warnings.push(`section titles from the model failed, extractive ones used: ${reasonOf(error)}`);
          warned = true;
          return offline(request);
        }
      });
    },
  };
}

async function modelTitle(chat: ChatModel, documentTitle: string, request: TitleRequest): Promise<string> {
  const content = (request.childTitles?.length ? request.childTitles.map((t) => `- ${t}`) : request.texts)
    .join('\n')
    .slice(0, MAX_PROMPT_CHARS);
  const hint = request.numbering
    ? ` Its author numbered it "${stripDelimiters(request.numbering)}" without a name; give the name only.`
    : request.childTitles?.length
      ? ' It groups the parts listed below; name what they share.'
      : '';
  const { value } = await chat.structured(
    {
      role: 'summarize',
      system: prompt('title-system'),
      messages: [
        {
          role: 'user',
          content: fillPrompt(prompt('title-section'), {
            document: stripDelimiters(documentTitle),
            hint,
            content: stripDelimiters(content),
          }),
        },
      ],
    },
    titleSchema,
  );
  let title = value.title.replace(/\s+/g, ' ').trim().replace(END_MARKS, '');
  // Models sometimes repeat the numbering they were asked to complete ("一、数据平台").
  if (request.numbering && title.startsWith(request.numbering))
    title = title.slice(request.numbering.length).trim();
  return title;
}

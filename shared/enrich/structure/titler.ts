import { z } from 'zod';
import { mapLimit } from '#shared/async/limiter.ts';
import { reasonOf } from '#shared/errors.ts';
import { fillPrompt, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { ChatModel } from '#shared/llm/types.ts';
import { offlineTitle, type TitleRequest, type Titler } from '#shared/parse/structure/titler.ts';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { loadPrompt } from '../prompt.ts';

/** A model sees the start of a section: enough to name it, bounded in tokens. */
const MAX_PROMPT_CHARS = 3_000;
/** Sections titled at once by a chat model (the provider also limits itself). */
const MODEL_CONCURRENCY = 4;
/** A model title longer than this is not a heading. */
const MAX_TITLE_CHARS = 80;

/** Sentence marks a heading does not end with. */
const END_MARKS = /[。．.!！?？;；:：,，、]+$/u;

const titleSchema = z.object({ title: z.string().trim().min(1).max(MAX_TITLE_CHARS) });

/**
 * The titler for the providers in force. Offline (`chat` undefined): `offlineTitle` (extractive, or
 * the key terms a grouping section's parts share). With a chat model: a short heading from
 * `chat.structured`; when the model fails for a section, that section gets its offline title and a
 * warning is recorded (a parse never fails for want of a title).
 */
export function createTitler(chat: ChatModel | undefined, documentTitle: string, warnings: string[]): Titler {
  if (!chat) return { titles: async (requests) => requests.map(offlineTitle) };
  let warned = false;
  return {
    async titles(requests) {
      return mapLimit([...requests], MODEL_CONCURRENCY, async (request) => {
        try {
          return (await modelTitle(chat, documentTitle, request)) || offlineTitle(request);
        } catch (error) {
          if (!warned)
            warnings.push(`section titles from the model failed, extractive ones used: ${reasonOf(error)}`);
          warned = true;
          return offlineTitle(request);
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
      system: loadPrompt('title-system'),
      messages: [
        {
          role: 'user',
          content: fillPrompt(loadPrompt('title-section'), {
            document: stripDelimiters(documentTitle),
            hint,
            content: stripDelimiters(content),
          }),
        },
      ],
    },
    titleSchema,
  );
  let title = collapseSpaces(value.title).replace(END_MARKS, '');
  // Models sometimes repeat the numbering they were asked to complete ("一、数据平台").
  if (request.numbering && title.startsWith(request.numbering))
    title = title.slice(request.numbering.length).trim();
  return title;
}

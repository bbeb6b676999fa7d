/** Defined by the functions' esbuild build (`define`, see infra/prompt-texts.ts); undeclared from source. */
declare const DROPQA_PROMPTS: Readonly<Record<string, string>> | undefined;

/**
 * The prompt files' texts by repository path (`shared/qa/prompts/answer.md`), put into the code by
 * the functions' build, since a Lambda package holds no `.md` file. From source it is empty and the
 * files are read where they are.
 */
export const BUNDLED_PROMPTS: Readonly<Record<string, string>> =
  typeof DROPQA_PROMPTS === 'undefined' ? {} : DROPQA_PROMPTS;

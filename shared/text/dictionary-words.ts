import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let lexicon: Record<string, unknown> | undefined;

/**
 * The words of OCR text that are words: Latin words the English lexicon (the `pos` tagger's) knows,
 * and Chinese text; every other token (a fragment such as "ain", "Hoo", "Arerener") becomes a full
 * stop, so no phrase spans it. Null for null.
 *
 * @example dictionaryWords('Hoo the invoice ain paid') // '. the invoice . paid'
 */
export function dictionaryWords(text: string | null): string | null {
  if (!text) return text;
  lexicon ??= require('pos/lexicon') as Record<string, unknown>;
  const known = lexicon;
  return text.replace(/[\p{L}\p{N}'’-]+/gu, (token) => {
    if (/\p{Script=Han}/u.test(token)) return token;
    const lower = token.toLowerCase();
    return Object.hasOwn(known, token) || Object.hasOwn(known, lower) ? token : '.';
  });
}

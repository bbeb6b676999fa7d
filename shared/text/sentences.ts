/** Sentence ends in Chinese and English text; the end mark stays with its sentence. */
const SENTENCE = /[^。！？!?；;\n]+(?:[。！？!?；;]+|\n+|$)|[。！？!?；;]+/gu;
/** Abbreviations a number follows: "No. 1", "Vol. 2", "Fig. 3", "pp. 12". */
const BEFORE_NUMBER = String.raw`\b(?:[Nn]os?|[Vv]ols?|[Ff]igs?|pp?|[Aa]rt|[Cc]h|[Ss]ec|[Oo]p|[Ee]q)`;
/**
 * A period ends an English sentence only when followed by space or the end ("3.14" and "e.g" stay
 * whole); before a number, not when it abbreviates a word such as "No." ("ranked No. 1 in 2019").
 */
const LATIN_PERIOD = new RegExp(
  String.raw`(?<=[a-z)\]"'])\.(?=\s+[A-Z"'(]|\s*$)|(?<=[a-z)\]"'])(?<!${BEFORE_NUMBER})\.(?=\s+\d)`,
  'gu',
);

/**
 * Splits text into sentences, keeping each sentence's own end mark and original wording, so an
 * extract quotes the source verbatim.
 *
 * @example splitSentences('预算为500万。It grew. Why?') // ['预算为500万。', 'It grew.', 'Why?']
 */
export function splitSentences(text: string): string[] {
  const marked = text.replace(LATIN_PERIOD, '.\u0000');
  const out: string[] = [];
  for (const chunk of marked.split('\u0000')) {
    for (const match of chunk.matchAll(SENTENCE)) {
      const sentence = match[0].trim();
      if (sentence) out.push(sentence);
    }
  }
  return out;
}

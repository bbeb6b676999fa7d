import type { OcrReading, QuarterTurn } from '#shared/llm/types.ts';

/** A reading this confident that looks like text (`looksLikeText`) is taken as it is: nothing else is tried. */
export const CONFIDENT_READING = 0.7;
/** Turns tried, in order, when the upright reading is not confident: sideways first, as scanners do. */
const TURNS: readonly QuarterTurn[] = [90, 270, 180];

/** One OCR pass: the picture turned by `turn`, read with the language models `languages`. */
export type OcrPass = (turn: QuarterTurn, languages: string) => Promise<OcrReading>;

/**
 * How much readable text a reading holds: its letters and digits (a Chinese character, a word in
 * itself, twice), each counted by the square of its block's confidence, so unsure garbage weighs
 * little. A sideways page read upright gives a few confident symbols or many unsure fragments; read
 * the right way up it gives many confident letters.
 */
export function readingScore(reading: OcrReading): number {
  const blocks = reading.blocks ?? [{ text: reading.text, confidence: reading.confidence ?? 0 }];
  let score = 0;
  for (const block of blocks) {
    const letters = block.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
    const han = block.text.match(/\p{Script=Han}/gu)?.length ?? 0;
    score += (letters + han) * block.confidence ** 2;
  }
  return score;
}

/** A token of real text: a word of two letters or digits or more, or Chinese characters. */
const WORD = /^(?:[\p{L}\p{N}][\p{L}\p{N}'’.,:;!?()-]+|.*\p{Script=Han}.*)$/u;

/**
 * Whether a reading looks like text: most of its tokens are words. A page read the wrong way up
 * comes out as confident single symbols ("=", "m", "I", "[I"), which the mean confidence hides.
 */
export function looksLikeText(reading: OcrReading): boolean {
  const tokens = reading.text.split(/\s+/).filter(Boolean);
  return tokens.length > 0 && tokens.filter((token) => WORD.test(token)).length * 2 >= tokens.length;
}

/**
 * The best reading of a picture: the upright one with all `languages` when it is confident
 * (`CONFIDENT_READING`) and looks like text (`looksLikeText`); else, until one is, each language alone (a Chinese picture read with
 * English first gives Latin garbage; the script's own model reads it), then the picture turned a
 * quarter, three quarters and half a turn with the best languages so far. The reading with the most
 * confident text wins (`readingScore`), with the turn and languages that made it.
 *
 * @example const reading = await bestReading((turn, langs) => recognize(image, turn, langs), ['eng', 'chi_sim']);
 */
export async function bestReading(pass: OcrPass, languages: readonly string[]): Promise<OcrReading> {
  const all = languages.join('+');
  let best: OcrReading = { ...(await pass(0, all)), turn: 0, languages: all };
  const confident = (reading: OcrReading) =>
    (reading.confidence ?? 0) >= CONFIDENT_READING && looksLikeText(reading);
  const consider = (reading: OcrReading) => {
    if (readingScore(reading) > readingScore(best)) best = reading;
  };
  if (confident(best)) return best;
  if (languages.length > 1) {
    for (const language of languages) {
      consider({ ...(await pass(0, language)), turn: 0, languages: language });
      if (confident(best)) return best;
    }
  }
  const chosen = best.languages ?? all;
  for (const turn of TURNS) {
    consider({ ...(await pass(turn, chosen)), turn, languages: chosen });
    if (confident(best)) return best;
  }
  return best;
}

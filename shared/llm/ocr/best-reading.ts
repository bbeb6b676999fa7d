import type { OcrReading, QuarterTurn } from '#shared/llm/types.ts';

/** A reading this confident that looks like text (`looksLikeText`) is taken as it is: nothing else is tried. */
export const CONFIDENT_READING = 0.7;
/** Turns tried, in order, when the upright reading is not confident: sideways first, as scanners do. */
const TURNS: readonly QuarterTurn[] = [90, 270, 180];

/** One OCR pass: the picture turned by `turn`, read with the language models `languages`. */
export type OcrPass = (turn: QuarterTurn, languages: string) => Promise<OcrReading>;

/**
 * A turned reading must hold this many times the readable text of the best upright one to be taken:
 * most pictures are upright, and a picture turned the wrong way still yields a few short fragments
 * ("3NI 13dId" for an upside-down "PIPELINE") that can outscore an unsure upright reading.
 */
const TURN_ADVANTAGE = 2;

/**
 * How much readable text a reading holds: per token, its letters and digits beyond the first two (a
 * Chinese character, a word in itself, counts twice), weighted by the square of its block's
 * confidence. Fragments of one or two characters ("LU", "on", "三"), which a picture read the wrong
 * way up is made of, count nothing; words count by their length, unsure garbage weighs little.
 */
export function readingScore(reading: OcrReading): number {
  const blocks = reading.blocks ?? [{ text: reading.text, confidence: reading.confidence ?? 0 }];
  let score = 0;
  for (const block of blocks) {
    for (const token of block.text.split(/\s+/)) {
      const letters = token.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
      const han = token.match(/\p{Script=Han}/gu)?.length ?? 0;
      score += Math.max(0, letters + han - 2) * block.confidence ** 2;
    }
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
 * confident text wins (`readingScore`; a turned one only by `TURN_ADVANTAGE`), with the turn and
 * languages that made it.
 *
 * @example const reading = await bestReading((turn, langs) => recognize(image, turn, langs), ['eng', 'chi_sim']);
 */
export async function bestReading(pass: OcrPass, languages: readonly string[]): Promise<OcrReading> {
  const all = languages.join('+');
  let best: OcrReading = { ...(await pass(0, all)), turn: 0, languages: all };
  const confident = (reading: OcrReading) =>
    (reading.confidence ?? 0) >= CONFIDENT_READING && looksLikeText(reading);
  const consider = (reading: OcrReading, advantage = 1) => {
    if (readingScore(reading) > advantage * readingScore(best)) best = reading;
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
    consider({ ...(await pass(turn, chosen)), turn, languages: chosen }, TURN_ADVANTAGE);
    if (confident(best)) return best;
  }
  return best;
}

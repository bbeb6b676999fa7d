import type { OcrReading } from '#shared/llm/types.ts';

/** The text of a reading that clears the confidence floor, and what was left out. */
export interface ReadableText {
  /** The blocks at or above the floor, joined by blank lines ('' when none). */
  text: string;
  /** Blocks below the floor that held letters or digits: how many, and their mean confidence (0..1). */
  left?: { blocks: number; confidence: number };
}

/**
 * Keeps the blocks of an OCR reading whose confidence reaches `floor` (0..1): text the engine was
 * unsure of is mostly garbage ("FERRED, SORRAENNRE SEX |") and must not be indexed, quoted or made
 * a topic. A reading without blocks is one block with its mean confidence.
 *
 * @example readableText({ text: 'a\n\n#~', blocks: [{ text: 'a', confidence: 0.9 }, { text: '#~', confidence: 0.2 }] }, 0.6)
 * // { text: 'a', left: { blocks: 1, confidence: 0.2 } }
 */
export function readableText(reading: OcrReading, floor: number): ReadableText {
  const blocks = reading.blocks ?? [{ text: reading.text, confidence: reading.confidence ?? 1 }];
  const kept: string[] = [];
  const low: number[] = [];
  for (const block of blocks) {
    const text = block.text.trim();
    if (!text) continue;
    if (block.confidence >= floor) kept.push(text);
    else if (/[\p{L}\p{N}]/u.test(text)) low.push(block.confidence);
  }
  return {
    text: kept.join('\n\n'),
    ...(low.length > 0
      ? { left: { blocks: low.length, confidence: low.reduce((a, b) => a + b, 0) / low.length } }
      : {}),
  };
}

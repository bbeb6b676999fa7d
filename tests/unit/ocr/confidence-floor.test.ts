import { describe, expect, it } from 'vitest';
import { readableText } from '#shared/llm/ocr/confidence-floor.ts';

describe('readableText', () => {
  it('keeps the blocks at or above the floor and counts the ones left out', () => {
    const kept = readableText(
      {
        text: '',
        blocks: [
          { text: 'Invoice 4411 is paid.', confidence: 0.92 },
          { text: 'FERRED, SORRAENNRE SEX', confidence: 0.31 },
          { text: '|', confidence: 0.1 },
        ],
      },
      0.6,
    );
    expect(kept).toEqual({ text: 'Invoice 4411 is paid.', left: { blocks: 1, confidence: 0.31 } });
  });

  it('treats a reading without blocks as one block of its mean confidence', () => {
    expect(readableText({ text: 'Hoo ain', confidence: 0.2 }, 0.6)).toEqual({
      text: '',
      left: { blocks: 1, confidence: 0.2 },
    });
  });
});

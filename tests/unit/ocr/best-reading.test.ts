import { describe, expect, it } from 'vitest';
import { bestReading, looksLikeText, type OcrPass, readingScore } from '#shared/llm/ocr/best-reading.ts';
import type { OcrReading, QuarterTurn } from '#shared/llm/types.ts';

/** A pass that reads what a table of (turn, languages) says, recording every pass asked for. */
function passes(table: Record<string, OcrReading>): { pass: OcrPass; asked: string[] } {
  const asked: string[] = [];
  const pass: OcrPass = async (turn: QuarterTurn, languages: string) => {
    asked.push(`${turn} ${languages}`);
    return table[`${turn} ${languages}`] ?? { text: '', confidence: 0, blocks: [] };
  };
  return { pass, asked };
}

const reading = (text: string, confidence: number): OcrReading => ({
  text,
  confidence,
  blocks: [{ text, confidence }],
});

describe('bestReading', () => {
  it('takes a confident upright reading with all languages and tries nothing else', async () => {
    const { pass, asked } = passes({
      '0 eng+chi_sim': reading('Quarterly report of the data platform', 0.9),
    });
    const best = await bestReading(pass, ['eng', 'chi_sim']);
    expect(best.text).toBe('Quarterly report of the data platform');
    expect(asked).toEqual(['0 eng+chi_sim']);
  });

  it('reads a Chinese picture with the Chinese model when all languages give unsure Latin', async () => {
    const { pass, asked } = passes({
      '0 eng+chi_sim': reading('FERRED, SORRAENNRE SEX | BEARER? 7', 0.31),
      '0 eng': reading('FERRED, SORRAENNRE SEX | BEARER? 7', 0.35),
      '0 chi_sim': reading('数据平台年度报告', 0.91),
    });
    const best = await bestReading(pass, ['eng', 'chi_sim']);
    expect(best).toMatchObject({ text: '数据平台年度报告', languages: 'chi_sim', turn: 0 });
    expect(asked).toEqual(['0 eng+chi_sim', '0 eng', '0 chi_sim']);
  });

  it('turns a sideways page whose upright reading is confident symbols, not words', async () => {
    const { pass } = passes({
      '0 eng': reading('= m I A I = = I 一 工 m a [I', 0.73),
      '270 eng': reading('Dear Anna, the invoice is paid.', 0.88),
    });
    const best = await bestReading(pass, ['eng']);
    expect(best).toMatchObject({ text: 'Dear Anna, the invoice is paid.', turn: 270 });
  });

  it('keeps an unsure upright reading over the short fragments of the picture turned', async () => {
    // What tesseract reads from the test picture of "PIPELINE" (tests/helpers/text-png.ts), per turn.
    const { pass } = passes({
      '0 eng': reading('FIFELIME', 0.58),
      '90 eng': reading('局\n—\non\nm\n三\n—\n=\nm', 0.67),
      '270 eng': reading('LU\n=\n—\n一 |\nLU\nDLL\n—\non', 0.76),
      '180 eng': reading('3NI 13dId', 0.74),
    });
    expect(await bestReading(pass, ['eng'])).toMatchObject({ text: 'FIFELIME', turn: 0 });
  });

  it('keeps the reading with the most confident text when none is confident', async () => {
    const { pass } = passes({
      '0 eng': reading('Hoo ain', 0.4),
      '90 eng': reading('Invoice number and amount due', 0.55),
    });
    expect((await bestReading(pass, ['eng'])).turn).toBe(90);
  });
});

describe('readingScore and looksLikeText', () => {
  it('counts letters of words by their confidence and tells words from symbols', () => {
    expect(readingScore(reading('abcd', 0.5))).toBeCloseTo(0.5);
    expect(readingScore(reading('数据', 0.5))).toBeCloseTo(0.5);
    expect(readingScore(reading('LU on 三 =', 0.9))).toBe(0);
    expect(looksLikeText(reading('the plan is done', 0.5))).toBe(true);
    expect(looksLikeText(reading('= m I | a', 0.9))).toBe(false);
    expect(looksLikeText(reading('系统 运行', 0.9))).toBe(true);
  });
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '#shared/errors.ts';
import { TesseractOcr } from '#shared/llm/ocr/tesseract.ts';
import { textPng } from '../../helpers/text-png.ts';

describe('TesseractOcr', () => {
  const ocr = new TesseractOcr({
    languages: 'chi_sim+eng',
    cacheDir: mkdtempSync(join(tmpdir(), 'dropqa-ocr-')),
  });
  afterAll(async () => {
    await ocr.close();
  });

  it('reads the words drawn in a PNG with the traineddata from the npm packages', async () => {
    const { text, confidence } = await ocr.recognize(textPng('HELLO CLOUD DROP'), 'image/png');
    expect(text).toContain('HELLO');
    expect(text).toContain('DROP');
    expect(confidence).toBeGreaterThan(0.3);
  });

  it('reuses its worker for the next image', async () => {
    const started = Date.now();
    const { text } = await ocr.recognize(textPng('SOLID PLAN'), 'image/png');
    expect(text).toContain('PLAN');
    // A new worker loads both languages (~1 s); a reused one only recognizes.
    expect(Date.now() - started).toBeLessThan(800);
  });

  it('turns a page scanned sideways until its text reads, and says by how much', async () => {
    const reading = await ocr.recognize(textPng('DEAR ANNA THE PLAN IS DONE', 4, 90), 'image/png');
    expect(reading.text).toMatch(/DEAR A..A THE PLA. IS/);
    expect(reading.turn).toBe(270);
    expect(reading.confidence).toBeGreaterThan(0.6);
  });

  it('reads a Chinese picture as Chinese text, without spaces between the characters', async () => {
    const picture = readFileSync(new URL('../../fixtures/ocr/annual-report-zh.png', import.meta.url));
    const reading = await ocr.recognize(new Uint8Array(picture), 'image/png');
    expect(reading.text).toContain('数据平台');
    expect(reading.text).toContain('系统运行稳定');
    expect(reading.blocks?.every((block) => block.confidence > 0.6)).toBe(true);
  });

  it('refuses a language whose traineddata is not installed', () => {
    expect(() => new TesseractOcr({ languages: 'fra', cacheDir: tmpdir() })).toThrow(ConfigError);
  });
});

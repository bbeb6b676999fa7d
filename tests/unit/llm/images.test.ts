import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors.ts';
import { BEDROCK_IMAGE_LIMITS, fitImage, splitByImages } from '#shared/llm/chat/images.ts';
import type { ChatMessage } from '#shared/llm/types.ts';

async function image(width: number, height: number, format: 'png' | 'tiff' = 'png'): Promise<Uint8Array> {
  const buffer = await sharp({ create: { width, height, channels: 3, background: '#808080' } })
    [format]()
    .toBuffer();
  return new Uint8Array(buffer);
}

describe('fitImage', () => {
  it('keeps an image that is within the limits', async () => {
    const bytes = await image(20, 20);
    expect(await fitImage(bytes, 'image/png', BEDROCK_IMAGE_LIMITS)).toEqual({ bytes, mime: 'image/png' });
  });

  it('converts a format the provider does not take', async () => {
    const fitted = await fitImage(await image(20, 20, 'tiff'), 'image/tiff', BEDROCK_IMAGE_LIMITS);
    expect(fitted.mime).toBe('image/jpeg');
    expect((await sharp(fitted.bytes).metadata()).format).toBe('jpeg');
  });

  it('shrinks an image over the byte limit below it', async () => {
    let seed = 12345;
    const pixels = Buffer.alloc(300 * 300 * 3);
    for (let i = 0; i < pixels.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      pixels[i] = seed >>> 24;
    }
    const noisy = await sharp(pixels, { raw: { width: 300, height: 300, channels: 3 } })
      .png()
      .toBuffer();
    const limits = { ...BEDROCK_IMAGE_LIMITS, maxBytes: 20_000 };
    const fitted = await fitImage(new Uint8Array(noisy), 'image/png', limits);
    expect(noisy.length).toBeGreaterThan(20_000);
    expect(fitted.bytes.length).toBeLessThanOrEqual(20_000);
  });

  it('refuses bytes that are not an image', async () => {
    await expect(fitImage(new Uint8Array([1, 2, 3]), 'image/png', BEDROCK_IMAGE_LIMITS)).rejects.toThrow(
      ValidationError,
    );
  });
});

describe('splitByImages', () => {
  const img = (n: number) => ({ type: 'image' as const, bytes: new Uint8Array([n]), mime: 'image/png' });

  it('keeps a conversation within the limit whole', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: [img(1), { type: 'text', text: 'x' }] }];
    expect(splitByImages(messages, 2)).toEqual([messages]);
  });

  it('spreads the images over requests that all keep the text', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'describe' }, img(1), img(2), img(3)] },
    ];
    const groups = splitByImages(messages, 2);
    expect(groups.map((g) => g[0]?.content)).toEqual([
      [{ type: 'text', text: 'describe' }, img(1), img(2)],
      [{ type: 'text', text: 'describe' }, img(3)],
    ]);
  });
});

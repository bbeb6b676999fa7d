import { describe, expect, it } from 'vitest';
import { readImageInfo } from '#shared/parse/image-info.ts';
import { resolveImagePath } from '#shared/parse/image-path.ts';
import { bmpBytes, gifBytes, jpegBytes, pngBytes, utf8, webpBytes } from './fixtures.ts';

describe('readImageInfo', () => {
  it('reads type and dimensions from PNG, JPEG, GIF, WebP and BMP headers', () => {
    const dims = (bytes: Uint8Array) => {
      const info = readImageInfo(bytes);
      return [info?.mime, info?.extension, info?.width, info?.height];
    };
    expect(dims(pngBytes(800, 600))).toEqual(['image/png', 'png', 800, 600]);
    expect(dims(jpegBytes(1024, 768))).toEqual(['image/jpeg', 'jpg', 1024, 768]);
    expect(dims(gifBytes(16, 9))).toEqual(['image/gif', 'gif', 16, 9]);
    expect(dims(webpBytes(300, 5000))).toEqual(['image/webp', 'webp', 300, 5000]);
    expect(dims(bmpBytes(31, 17))).toEqual(['image/bmp', 'bmp', 31, 17]);
  });

  it('identifies a truncated header without dimensions', () => {
    expect(readImageInfo(pngBytes(1, 1).subarray(0, 12))).toEqual({
      mime: 'image/png',
      extension: 'png',
      label: 'a PNG image',
    });
  });

  it('returns undefined for text', () => {
    expect(readImageInfo(utf8('BMW is a car brand'))).toBeUndefined();
  });
});

describe('resolveImagePath', () => {
  it('decodes percent-escapes, strips ./ and folds inner ..', () => {
    expect(resolveImagePath('./images/my%20chart.png')).toEqual({ ok: true, path: 'images/my chart.png' });
    expect(resolveImagePath('a/./b/../c.png?raw=1#x')).toEqual({ ok: true, path: 'a/c.png' });
    expect(resolveImagePath('pics\\win.png')).toEqual({ ok: true, path: 'pics/win.png' });
  });

  it('refuses URLs, absolute paths and escapes from the folder', () => {
    expect(resolveImagePath('http://x.test/a.png')).toMatchObject({ ok: false, remote: true });
    expect(resolveImagePath('//cdn.test/a.png')).toMatchObject({ ok: false, remote: true });
    expect(resolveImagePath('file:///etc/passwd')).toMatchObject({ ok: false, remote: true });
    expect(resolveImagePath('/etc/a.png')).toMatchObject({ ok: false, remote: false });
    expect(resolveImagePath('C:\\a.png')).toMatchObject({ ok: false, remote: false });
    expect(resolveImagePath('%2Fetc%2Fa.png')).toMatchObject({ ok: false, remote: false });
    expect(resolveImagePath('a/../../b.png')).toMatchObject({
      ok: false,
      reason: "the path leaves the document's folder",
    });
  });
});

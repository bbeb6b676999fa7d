import { describe, expect, it } from 'vitest';
import { byteBatches, jsonStringBytes, parameterBytes } from '#shared/db/data-api-limits.ts';

describe('byteBatches', () => {
  it('cuts consecutive batches at the byte budget and at the row limit', () => {
    const sizes = [4, 4, 4, 9, 1, 1, 1];
    expect(byteBatches(sizes, (n) => n, { maxBytes: 10, maxRows: 2 })).toEqual([[4, 4], [4], [9, 1], [1, 1]]);
  });

  it('gives an item above the budget a batch of its own', () => {
    expect(byteBatches([2, 50, 2], (n) => n, { maxBytes: 10 })).toEqual([[2], [50], [2]]);
  });
});

describe('parameterBytes', () => {
  it('counts each value as the JSON string it travels as, escapes and multi-byte characters included', () => {
    expect(parameterBytes(['a"b', null]) - parameterBytes(['', null])).toBe(4);
    expect(parameterBytes(['季']) - parameterBytes([''])).toBe(3);
  });
});

describe('jsonStringBytes', () => {
  const byJson = (text: string) => Buffer.byteLength(JSON.stringify(text));

  it('counts what JSON.stringify writes, in UTF-8 bytes', () => {
    const samples = [
      '',
      'plain text',
      '[0.1234567,-0.5000000,0]',
      'a"b\\c',
      'tab\tnew line\nbell\u0007nul\u0000del\u007f',
      '季度报告 · Q3',
      'é and ü',
      'emoji 😀 pair',
      'lone \ud800 high, lone \udc00 low, reversed \udc00\ud800',
      '\u2028\u2029',
    ];
    for (const text of samples) expect(jsonStringBytes(text), JSON.stringify(text)).toBe(byJson(text));
  });

  it('agrees with JSON.stringify on random strings of every kind of character', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const ranges = [0x20, 0x80, 0x800, 0xd800, 0xdc00, 0xe000, 0x10000];
    for (let n = 0; n < 500; n++) {
      const codes = Array.from({ length: Math.floor(random() * 20) }, () => {
        const top = ranges[Math.floor(random() * ranges.length)] as number;
        return Math.floor(random() * top);
      });
      const text = String.fromCharCode(...codes);
      expect(jsonStringBytes(text), JSON.stringify(text)).toBe(byJson(text));
    }
  });
});

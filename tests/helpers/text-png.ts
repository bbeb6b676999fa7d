import { crc32, deflateSync } from 'node:zlib';

/** 5x7 glyphs ('#' = ink) for the letters test images use; enough to draw words OCR can read. */
const GLYPHS: Record<string, string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  I: ['.###.', '..#..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  N: ['#...#', '##..#', '#.#.#', '#..##', '#...#', '#...#', '#...#'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
  R: ['####.', '#...#', '#...#', '####.', '#.#..', '#..#.', '#...#'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  U: ['#...#', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  W: ['#...#', '#...#', '#...#', '#.#.#', '#.#.#', '##.##', '#...#'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Quarter turns clockwise a picture can be given, as a page scanned sideways or upside down is. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/**
 * A grayscale PNG with `text` (upper-case letters of GLYPHS and spaces) drawn in black on white,
 * each font pixel `scale` pixels wide, with a margin: a real image OCR can read, a few KB. `turn`
 * rotates the picture clockwise (a page scanned sideways).
 */
export function textPng(text: string, scale = 4, turn: QuarterTurn = 0): Uint8Array {
  const chars = [...text.toUpperCase()];
  const margin = 4 * scale;
  const width = margin * 2 + chars.length * 6 * scale;
  const height = margin * 2 + 7 * scale;
  const ink = new Uint8Array(width * height);
  chars.forEach((c, i) => {
    const glyph = GLYPHS[c];
    if (!glyph) throw new Error(`textPng has no glyph for '${c}'`);
    glyph.forEach((row, gy) => {
      [...row].forEach((cell, gx) => {
        if (cell !== '#') return;
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) {
            ink[(margin + gy * scale + dy) * width + margin + (i * 6 + gx) * scale + dx] = 1;
          }
      });
    });
  });
  const sideways = turn === 90 || turn === 270;
  const [outWidth, outHeight] = sideways ? [height, width] : [width, height];
  const pixels = Buffer.alloc((outWidth + 1) * outHeight, 0xff);
  for (let y = 0; y < outHeight; y++) pixels[y * (outWidth + 1)] = 0; // filter byte: none
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!ink[y * width + x]) continue;
      const [tx, ty] =
        turn === 90
          ? [height - 1 - y, x]
          : turn === 180
            ? [width - 1 - x, height - 1 - y]
            : turn === 270
              ? [y, width - 1 - x]
              : [x, y];
      pixels[ty * (outWidth + 1) + 1 + tx] = 0;
    }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(outWidth, 0);
  ihdr.writeUInt32BE(outHeight, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // grayscale
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(pixels)),
      chunk('IEND', new Uint8Array()),
    ]),
  );
}

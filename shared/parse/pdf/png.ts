import { crc32, deflateSync } from 'node:zlib';

/** Pixel layouts pdf.js decodes images to (its `ImageKind`). */
export const PIXEL_KIND = { gray1: 1, rgb: 2, rgba: 3 } as const;

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Encodes raw pixels as a PNG: 1-bit grayscale (rows padded to whole bytes, 1 = white, as pdf.js
 * and PNG both lay them out), 8-bit RGB or RGBA. Rows are stored unfiltered and deflated.
 *
 * @param kind one of `PIXEL_KIND`
 */
export function encodePng(width: number, height: number, kind: number, pixels: Uint8Array): Uint8Array {
  const [bitDepth, colorType, rowBytes] =
    kind === PIXEL_KIND.gray1
      ? [1, 0, Math.ceil(width / 8)]
      : kind === PIXEL_KIND.rgb
        ? [8, 2, width * 3]
        : [8, 6, width * 4];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([bitDepth, colorType, 0, 0, 0], 8);
  const raw = Buffer.alloc((rowBytes + 1) * height);
  for (let row = 0; row < height; row++) {
    const from = row * rowBytes;
    raw.set(pixels.subarray(from, Math.min(from + rowBytes, pixels.length)), row * (rowBytes + 1) + 1);
  }
  // Speed over size: the fastest level still shrinks flat areas well, and photos barely compress anyway.
  const data = deflateSync(raw, { level: 1 });
  return new Uint8Array(
    Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', new Uint8Array(0))]),
  );
}

/** What an image header says: its type and, when the header holds them, its pixel dimensions. */
export interface ImageInfo {
  mime: string;
  /** File extension for the type, without the dot (`png`, `jpg`, ...). */
  extension: string;
  /** Human name of the format, for messages ("a PNG image"). */
  label: string;
  width?: number;
  height?: number;
}

type Reader = (bytes: Uint8Array, view: DataView) => ImageInfo | undefined;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((byte, i) => bytes[at + i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** Dimensions only when the header is long enough to hold them. */
function sized(
  info: Omit<ImageInfo, 'width' | 'height'>,
  size: () => [number, number] | undefined,
): ImageInfo {
  try {
    const dims = size();
    if (dims && dims[0] > 0 && dims[1] > 0) return { ...info, width: dims[0], height: dims[1] };
  } catch {
    // A truncated header still identifies the type; the dimensions stay unknown.
  }
  return info;
}

const png: Reader = (bytes, view) => {
  if (!startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return undefined;
  return sized({ mime: 'image/png', extension: 'png', label: 'a PNG image' }, () =>
    ascii(bytes, 12, 16) === 'IHDR' ? [view.getUint32(16), view.getUint32(20)] : undefined,
  );
};

const gif: Reader = (bytes, view) => {
  const head = ascii(bytes, 0, 6);
  if (head !== 'GIF87a' && head !== 'GIF89a') return undefined;
  return sized({ mime: 'image/gif', extension: 'gif', label: 'a GIF image' }, () => [
    view.getUint16(6, true),
    view.getUint16(8, true),
  ]);
};

/** Start-of-frame markers carry the dimensions; DHT (C4), JPG (C8) and DAC (CC) do not. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Uint8Array, view: DataView): [number, number] | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image / start of scan
    const length = view.getUint16(at + 2);
    if (isStartOfFrame(marker)) return [view.getUint16(at + 7), view.getUint16(at + 5)];
    at += 2 + length;
  }
  return undefined;
}

const jpeg: Reader = (bytes, view) => {
  if (!startsWith(bytes, [0xff, 0xd8, 0xff])) return undefined;
  return sized({ mime: 'image/jpeg', extension: 'jpg', label: 'a JPEG image' }, () => jpegSize(bytes, view));
};

function webpSize(bytes: Uint8Array, view: DataView): [number, number] | undefined {
  const chunk = ascii(bytes, 12, 16);
  if (chunk === 'VP8 ') return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
  if (chunk === 'VP8L') {
    const b1 = bytes[22] ?? 0;
    const b2 = bytes[23] ?? 0;
    const b3 = bytes[24] ?? 0;
    const b0 = bytes[21] ?? 0;
    return [1 + (b0 | ((b1 & 0x3f) << 8)), 1 + ((b1 >> 6) | (b2 << 2) | ((b3 & 0x0f) << 10))];
  }
  if (chunk === 'VP8X') {
    const w = 1 + (view.getUint16(24, true) | ((bytes[26] ?? 0) << 16));
    const h = 1 + (view.getUint16(27, true) | ((bytes[29] ?? 0) << 16));
    return [w, h];
  }
  return undefined;
}

const webp: Reader = (bytes, view) => {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 12) !== 'WEBP') return undefined;
  return sized({ mime: 'image/webp', extension: 'webp', label: 'a WebP image' }, () => webpSize(bytes, view));
};

const bmp: Reader = (bytes, view) => {
  // "BM" alone is too weak (text can start with it): require the reserved header bytes to be zero.
  if (!startsWith(bytes, [0x42, 0x4d]) || !startsWith(bytes, [0, 0, 0, 0], 6)) return undefined;
  return sized({ mime: 'image/bmp', extension: 'bmp', label: 'a BMP image' }, () => {
    const headerSize = view.getUint32(14, true);
    if (headerSize === 12) return [view.getUint16(18, true), view.getUint16(20, true)];
    return [Math.abs(view.getInt32(18, true)), Math.abs(view.getInt32(22, true))];
  });
};

/** TIFF (a scanner's usual format): the first page's ImageWidth (256) and ImageLength (257) tags. */
const tiff: Reader = (bytes, view) => {
  const order = ascii(bytes, 0, 4);
  if (order !== 'II*\u0000' && order !== 'MM\u0000*') return undefined;
  const little = order.startsWith('II');
  return sized({ mime: 'image/tiff', extension: 'tiff', label: 'a TIFF image' }, () => {
    const ifd = view.getUint32(4, little);
    const count = view.getUint16(ifd, little);
    const dims: Record<number, number> = {};
    for (let i = 0; i < count; i++) {
      const at = ifd + 2 + i * 12;
      const tag = view.getUint16(at, little);
      if (tag !== 256 && tag !== 257) continue;
      const short = view.getUint16(at + 2, little) === 3;
      dims[tag] = short ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little);
    }
    return dims[256] && dims[257] ? [dims[256], dims[257]] : undefined;
  });
};

const READERS: readonly Reader[] = [png, jpeg, gif, webp, bmp, tiff];

/**
 * Identifies a PNG, JPEG, GIF, WebP or BMP image by its header and reads its dimensions, without
 * decoding pixels. Returns undefined for anything else.
 *
 * @example readImageInfo(bytes) // { mime: 'image/png', extension: 'png', label: 'a PNG image', width: 640, height: 480 }
 */
export function readImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const read of READERS) {
    const info = read(bytes, view);
    if (info) return info;
  }
  return undefined;
}

/**
 * The name of a document's n-th extracted image (1-based): `img_001.png`. Every parser names images
 * this way; the rendition links and the bucket keys use the name.
 */
export function extractedImageName(n: number, extension: string): string {
  return `img_${String(n).padStart(3, '0')}.${extension}`;
}

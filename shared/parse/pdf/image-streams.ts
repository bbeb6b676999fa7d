import type { StoredJpeg } from './page-objects.ts';

/** What the image XObjects stored in a PDF file say about its images, before pdf.js reads a page. */
export interface ImageStreams {
  /** Image XObjects of at least `minSide` pixels each way: none means no page can have an image worth extracting. */
  large: number;
  /** Image XObjects smaller than that (rules, bullets), to be counted as skipped. */
  small: number;
  /** Plain JPEG files stored whole (DCTDecode streams), by pixel size (`640x480`). */
  jpegs: ReadonlyMap<string, Uint8Array[]>;
  /** The same JPEGs by the number of their image XObject. */
  jpegObjects: ReadonlyMap<number, StoredJpeg>;
}

const DICTIONARY_WINDOW = 2048;

function numberAfter(dictionary: string, key: string): number | undefined {
  const match = new RegExp(`/${key}\\s*(\\d+)(?!\\s+\\d+\\s+R)`).exec(dictionary);
  return match ? Number(match[1]) : undefined;
}

/** The stream data that follows `stream` at `at`: by a direct /Length, else up to `endstream`. */
function streamData(bytes: Buffer, at: number, length: number | undefined): Uint8Array | undefined {
  let start = at + 'stream'.length;
  if (bytes[start] === 0x0d) start++;
  if (bytes[start] === 0x0a) start++;
  const end = length !== undefined ? start + length : bytes.indexOf('endstream', start, 'latin1');
  if (end < start || end > bytes.length) return undefined;
  return new Uint8Array(bytes.subarray(start, end));
}

/** A plain JPEG: one DCTDecode filter, no soft mask, no decode array, not CMYK (browsers show those badly). */
function isPlainJpeg(dictionary: string): boolean {
  return (
    /\/DCTDecode/.test(dictionary) &&
    !/\/SMask|\/Decode\s*\[|\/DeviceCMYK|\/Filter\s*\[\s*\/\w+\s*\//.test(dictionary)
  );
}

/**
 * Reads the image XObjects' dictionaries straight from the file: image streams never sit inside
 * object streams, and dictionaries are not encrypted, so a byte scan finds them all. Counts the
 * ones large enough to extract and collects the JPEGs stored whole, so they are kept as the original
 * file instead of re-encoded pixels (an encrypted stream fails the JPEG signature check and is left
 * out). Inline images inside content streams are not seen here.
 */
export function scanImageStreams(pdf: Uint8Array, minSide: number): ImageStreams {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const jpegs = new Map<string, Uint8Array[]>();
  const jpegObjects = new Map<number, StoredJpeg>();
  let large = 0;
  let small = 0;
  let at = bytes.indexOf('/Image', 0, 'latin1');
  while (at !== -1) {
    const head = bytes.toString('latin1', Math.max(0, at - DICTIONARY_WINDOW), at);
    const streamAt = bytes.indexOf('stream', at, 'latin1');
    const objectStart = head.lastIndexOf(' obj');
    if (
      /\/Subtype\s*$/.test(head) &&
      objectStart !== -1 &&
      streamAt !== -1 &&
      streamAt - at < DICTIONARY_WINDOW
    ) {
      const dictionary = head.slice(objectStart) + bytes.toString('latin1', at, streamAt);
      const width = numberAfter(dictionary, 'Width') ?? 0;
      const height = numberAfter(dictionary, 'Height') ?? 0;
      if (width < minSide || height < minSide) small++;
      else {
        large++;
        const data = isPlainJpeg(dictionary)
          ? streamData(bytes, streamAt, numberAfter(dictionary, 'Length'))
          : undefined;
        if (data && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
          const key = `${width}x${height}`;
          jpegs.set(key, [...(jpegs.get(key) ?? []), data]);
          const num = /(\d+)\s+\d+\s*$/.exec(head.slice(0, objectStart));
          if (num) jpegObjects.set(Number(num[1]), { bytes: data, width, height });
        }
      }
    }
    at = bytes.indexOf('/Image', at + 1, 'latin1');
  }
  return { large, small, jpegs, jpegObjects };
}

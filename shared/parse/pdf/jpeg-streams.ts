/** JPEG files stored whole in a PDF (DCTDecode image streams), by their pixel size. */
export type JpegStreams = ReadonlyMap<string, Uint8Array[]>;

const DICTIONARY_WINDOW = 2048;

function numberAfter(dictionary: string, key: string): number | undefined {
  const match = new RegExp(`/${key}\\s+(\\d+)(?!\\s+\\d+\\s+R)`).exec(dictionary);
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

/**
 * Finds the image XObjects of a PDF whose data is a plain JPEG (a single DCTDecode filter, RGB or
 * gray, no soft mask, no decode array), so that they can be kept as the original JPEG instead of
 * being re-encoded from decoded pixels. Image streams never sit inside object streams, so their
 * dictionaries can be read from the file as it is; encrypted streams fail the JPEG signature check
 * and are left out.
 */
export function findJpegStreams(pdf: Uint8Array): JpegStreams {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const found = new Map<string, Uint8Array[]>();
  let at = bytes.indexOf('/DCTDecode', 0, 'latin1');
  while (at !== -1) {
    const from = Math.max(0, at - DICTIONARY_WINDOW);
    const head = bytes.toString('latin1', from, at);
    const objectStart = head.lastIndexOf(' obj');
    const streamAt = bytes.indexOf('stream', at, 'latin1');
    if (objectStart !== -1 && streamAt !== -1 && streamAt - at < DICTIONARY_WINDOW) {
      const dictionary = head.slice(objectStart) + bytes.toString('latin1', at, streamAt);
      const plain =
        /\/Subtype\s*\/Image/.test(dictionary) &&
        !/\/SMask|\/Decode\s*\[|\/DeviceCMYK|\/Filter\s*\[\s*\/\w+\s+\//.test(dictionary);
      const width = numberAfter(dictionary, 'Width');
      const height = numberAfter(dictionary, 'Height');
      const data = plain ? streamData(bytes, streamAt, numberAfter(dictionary, 'Length')) : undefined;
      if (data && width && height && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
        const key = `${width}x${height}`;
        found.set(key, [...(found.get(key) ?? []), data]);
      }
    }
    at = bytes.indexOf('/DCTDecode', at + 1, 'latin1');
  }
  return found;
}

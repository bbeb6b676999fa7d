import { Transform, type TransformCallback } from 'node:stream';

const CRLF = Buffer.from('\r\n');

/** Bytes a header field value may hold (RFC 9110 field-vchar, obs-text, tab, space) plus CR and LF. */
function allowedInHeader(byte: number): boolean {
  return byte === 9 || byte === 10 || byte === 13 || (byte >= 32 && byte !== 127);
}

/**
 * Drops, as the body streams, the bytes a part header may not hold (NUL and the other control
 * characters) from every part header of a `multipart/form-data` body. busboy refuses a whole
 * request over one such byte ("Malformed part header"); without it the file whose name held it
 * arrives with the name cleaned (its upload key is then checked on its own) and the request's other
 * files are unaffected. Part bodies pass through untouched; a malformed body stays malformed.
 *
 * @example Readable.fromWeb(body).pipe(cleanPartHeaders(boundary)).pipe(busboyParser)
 */
export function cleanPartHeaders(boundary: string): Transform {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The body starts with the first delimiter without its CRLF: a CRLF in front (busboy reads it as an
  // empty preamble) makes every delimiter look alike.
  let carry: Buffer = CRLF;
  let inHeader = false;
  /** The last bytes of the header being read, to find the CRLF CRLF that ends it across chunks. */
  let tail = 0;

  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      carry = Buffer.alloc(0);
      while (data.length > 0) {
        if (!inHeader) {
          const at = data.indexOf(delimiter);
          if (at < 0) {
            // Keep what could be the start of a delimiter for the next chunk.
            const safe = Math.max(0, data.length - (delimiter.length - 1));
            if (safe > 0) this.push(data.subarray(0, safe));
            carry = Buffer.from(data.subarray(safe));
            break;
          }
          this.push(data.subarray(0, at + delimiter.length));
          data = data.subarray(at + delimiter.length);
          inHeader = true;
          tail = 0;
          continue;
        }
        const kept: number[] = [];
        let end = data.length;
        for (let i = 0; i < data.length; i++) {
          const byte = data[i] as number;
          if (!allowedInHeader(byte)) continue;
          kept.push(byte);
          // tail counts the bytes of CR LF CR LF matched so far.
          tail = byte === (tail % 2 === 0 ? 13 : 10) ? tail + 1 : byte === 13 ? 1 : 0;
          if (tail === 4) {
            end = i + 1;
            inHeader = false;
            break;
          }
        }
        this.push(Buffer.from(kept));
        data = data.subarray(end);
      }
      done();
    },
    flush(done: TransformCallback) {
      if (carry.length > 0) this.push(carry);
      done();
    },
  });
}

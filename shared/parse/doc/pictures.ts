import { type Blip, FBSE, fbsePicture } from '../officeart/blip.ts';
import { recordsIn } from '../officeart/records.ts';
import { cpAfter, eachSprm, fkpRuns, tableRowEnds, view, type WordBody } from './word-binary.ts';

/**
 * The inline pictures of a Word 97-2003 body ([MS-DOC] 2.9.192, [MS-ODRAW]): a picture is a 0x01
 * character whose run's properties say where its PICF lies in the Data stream (sprmCPicLocation);
 * after the PICF's 68-byte header comes an OfficeArt shape and the FBSE holding the picture's BLIP.
 * Floating pictures (anchored drawings) are not read.
 */
export interface WordPicture {
  /** The line of the extracted body text it sits on (paragraphs, line breaks and table rows counted). */
  line: number;
  picture: Blip;
}

const SPRM_PIC_LOCATION = 0x6a03;
const SPRM_FORM_DATA = 0x0806;
const SPRM_OLE2 = 0x080a;
const PICTURE_CHAR = 0x01;
const PICF_HEADER = 0x44;
const MM_SHAPEFILE = 0x66;
/** The characters that end a line of the extracted text: paragraph marks, line, column and page breaks. */
function endsLine(code: number): boolean {
  return code === 0x0d || code === 0x0a || code === 0x0b || code === 0x0c;
}

/** The picture of the PICF at `offset` in the Data stream. */
function pictureAt(data: Uint8Array, offset: number, maxBytes: number): Blip {
  const d = view(data);
  if (offset + PICF_HEADER > data.length)
    return { reason: 'its picture header lies outside the Data stream' };
  const lcb = d.getUint32(offset, true);
  if (d.getUint16(offset + 4, true) !== PICF_HEADER) return { reason: 'its picture header is not a PICF' };
  let at = offset + PICF_HEADER;
  if (d.getUint16(offset + 6, true) === MM_SHAPEFILE) at += 1 + (data[at] ?? 0);
  const end = Math.min(offset + lcb, data.length);
  const records = recordsIn(d, at, end);
  const fbse = records.find((record) => record.type === FBSE);
  if (!fbse) return { reason: 'it holds no picture (a linked picture or an embedded object)' };
  return fbsePicture(data, fbse, undefined, maxBytes);
}

/**
 * The inline pictures of the body in reading order, each with the line of word-extractor's body text
 * it follows. Without a Data stream there are none.
 */
export function readWordPictures(
  body: WordBody,
  data: Uint8Array | undefined,
  maxBytes: number,
): WordPicture[] {
  if (!data) return [];
  const w = view(body.word);
  const found: { cp: number; offset: number }[] = [];
  for (const run of fkpRuns(body.word, body.fib, 'character')) {
    let offset: number | undefined;
    let skip = false;
    eachSprm(w, run.from, run.to, (sprm, at) => {
      if (sprm === SPRM_PIC_LOCATION && at + 4 <= run.to) offset = w.getUint32(at, true);
      else if ((sprm === SPRM_FORM_DATA || sprm === SPRM_OLE2) && w.getUint8(at) === 1) skip = true;
      return false;
    });
    if (offset === undefined || skip) continue;
    const cpEnd = cpAfter(body.pieces, run.fcEnd);
    const cpStart = cpAfter(body.pieces, run.fcStart + 1);
    if (cpEnd === undefined || cpStart === undefined) continue;
    for (let cp = cpStart - 1; cp < Math.min(cpEnd, body.fib.ccpText); cp++) {
      if (body.text.charCodeAt(cp) === PICTURE_CHAR) found.push({ cp, offset });
    }
  }
  if (found.length === 0) return [];
  found.sort((a, b) => a.cp - b.cp);
  const rowEnds = tableRowEnds(body);
  let line = 0;
  let counted = 0;
  let row = 0;
  return found.map(({ cp, offset }) => {
    for (; counted < cp; counted++) if (endsLine(body.text.charCodeAt(counted))) line++;
    while ((rowEnds[row] ?? Number.POSITIVE_INFINITY) < cp) row++;
    return { line: line + row, picture: pictureAt(data, offset, maxBytes) };
  });
}

import { UnsupportedDocumentError } from '#shared/errors.ts';
import { bstoreEntries } from '../officeart/blip.ts';
import { childrenOf, descendants, type OfficeRecord, recordAt } from '../officeart/records.ts';
import { isPropertyTable, shapePicture } from '../officeart/shape-properties.ts';

/** Record types of [MS-PPT] used here. */
const RT = {
  document: 0x03e8,
  slide: 0x03ee,
  slideAtom: 0x03ef,
  notes: 0x03f0,
  slidePersistAtom: 0x03f3,
  userEditAtom: 0x0ff5,
  persistDirectoryAtom: 0x1772,
  slideListWithText: 0x0ff0,
  textHeaderAtom: 0x0f9f,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
  outlineTextRefAtom: 0x0f9e,
  shapeContainer: 0xf004,
  placeholderAtom: 0x0bc3,
  drawingGroup: 0x040b,
} as const;

/** Placeholder types (PlaceholderEnum) of titles: master title and center title, title, center and vertical title. */
const TITLE_PLACEHOLDERS = new Set([0x01, 0x03, 0x0d, 0x0f, 0x11]);
/** The text type a title placeholder's text is given when its TextHeaderAtom says only "other". */
const TITLE_TYPE = 0;

/** TextHeaderAtom text types: title, body, notes, other, center body, center title, half, quarter. */
const TITLE_TYPES = new Set([0, 6]);
const NOTES_TYPE = 2;
const ENCRYPTED_TOKEN = 0xf3d1c4df;
const MAX_EDITS = 4096;

export interface PptText {
  textType: number;
  text: string;
}

/** A picture shape: its picture's 1-based index in the BStore and its alternative text. */
export interface PptPicture {
  pib: number;
  alt: string;
}

/** A slide's texts and pictures in drawing order and its notes' texts. */
export interface PptSlide {
  texts: PptText[];
  pictures: PptPicture[];
  notes: string[];
}

/** The slides in presentation order and the drawing group's picture entries (FBSE records). */
export interface PptDeck {
  slides: PptSlide[];
  bstore: OfficeRecord[];
}

interface Deck {
  stream: DataView;
  bytes: Uint8Array;
  persist: Map<number, number>;
}

function textOf(deck: Deck, record: OfficeRecord): string {
  const body = deck.bytes.subarray(record.start, record.end);
  const text =
    record.type === RT.textCharsAtom
      ? new TextDecoder('utf-16le').decode(body)
      : new TextDecoder('latin1').decode(body);
  // Paragraphs end with a carriage return, soft line breaks are vertical tabs.
  return text.replace(/[\r\v]/g, '\n').trim();
}

/** The persist directory (persist id -> stream offset) from every edit, the newest winning. */
function readPersist(
  stream: DataView,
  currentEdit: number,
): { persist: Map<number, number>; docRef: number } {
  const persist = new Map<number, number>();
  let offset = currentEdit;
  let docRef: number | undefined;
  const seen = new Set<number>();
  while (offset > 0 && !seen.has(offset) && seen.size < MAX_EDITS) {
    seen.add(offset);
    const edit = recordAt(stream, offset);
    if (edit?.type !== RT.userEditAtom) throw new Error(`no UserEditAtom at offset ${offset}`);
    docRef ??= stream.getUint32(edit.start + 16, true);
    const directory = recordAt(stream, stream.getUint32(edit.start + 12, true));
    if (directory?.type !== RT.persistDirectoryAtom) throw new Error('no persist directory');
    let at = directory.start;
    while (at + 4 <= directory.end) {
      const entry = stream.getUint32(at, true);
      const first = entry & 0xfffff;
      const count = entry >>> 20;
      at += 4;
      for (let i = 0; i < count && at + 4 <= directory.end; i++, at += 4) {
        if (!persist.has(first + i)) persist.set(first + i, stream.getUint32(at, true));
      }
    }
    offset = stream.getUint32(edit.start + 8, true);
  }
  if (docRef === undefined) throw new Error('no document edit');
  return { persist, docRef };
}

function recordOf(deck: Deck, persistId: number, type: number): OfficeRecord | undefined {
  const offset = deck.persist.get(persistId);
  const record = offset === undefined ? undefined : recordAt(deck.stream, offset);
  return record?.type === type ? record : undefined;
}

/** The placeholder texts a slide list keeps after each SlidePersistAtom, by the slide's persist ref. */
function slideList(
  deck: Deck,
  list: OfficeRecord,
): { persistRef: number; slideId: number; texts: PptText[] }[] {
  const out: { persistRef: number; slideId: number; texts: PptText[] }[] = [];
  let textType = 4;
  for (const record of childrenOf(deck.stream, list)) {
    if (record.type === RT.slidePersistAtom) {
      out.push({
        persistRef: deck.stream.getUint32(record.start, true),
        slideId: deck.stream.getUint32(record.start + 12, true),
        texts: [],
      });
    } else if (record.type === RT.textHeaderAtom) {
      textType = deck.stream.getUint32(record.start, true);
    } else if (record.type === RT.textCharsAtom || record.type === RT.textBytesAtom) {
      out.at(-1)?.texts.push({ textType, text: textOf(deck, record) });
    }
  }
  return out;
}

/** The texts and pictures of a slide's or notes page's drawing, in order; outline references resolved. */
function drawing(
  deck: Deck,
  container: OfficeRecord,
  listTexts: PptText[],
): { texts: PptText[]; pictures: PptPicture[] } {
  const texts: PptText[] = [];
  const pictures: PptPicture[] = [];
  let textType = 4;
  let titleShape = false;
  for (const record of descendants(deck.stream, container)) {
    if (record.type === RT.shapeContainer) titleShape = false;
    else if (record.type === RT.placeholderAtom && record.end - record.start >= 5) {
      titleShape = TITLE_PLACEHOLDERS.has(deck.stream.getUint8(record.start + 4));
    } else if (record.type === RT.textHeaderAtom) textType = deck.stream.getUint32(record.start, true);
    else if (record.type === RT.textCharsAtom || record.type === RT.textBytesAtom) {
      texts.push({ textType: titleShape ? TITLE_TYPE : textType, text: textOf(deck, record) });
    } else if (record.type === RT.outlineTextRefAtom) {
      const referenced = listTexts[deck.stream.getUint32(record.start, true)];
      if (referenced) texts.push(referenced);
    } else if (isPropertyTable(record)) {
      const { pib, description } = shapePicture(deck.stream, record);
      if (pib) pictures.push({ pib, alt: description ?? '' });
    }
  }
  return { texts: texts.filter((text) => text.text !== ''), pictures };
}

/**
 * Reads the slides of a PowerPoint 97-2003 stream in presentation order: the current edit's persist
 * directory locates the document, whose slide list orders the slides; each slide's drawing gives its
 * texts (placeholders, text boxes, tables' cells) and pictures (their BStore index, `pib`) and its
 * notes page the speaker notes. The drawing group's BStore lists the pictures' entries.
 */
export function readDeck(bytes: Uint8Array, currentUser: Uint8Array | undefined, filename: string): PptDeck {
  const stream = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!currentUser || currentUser.length < 20) throw new Error('the Current User stream is missing');
  const user = new DataView(currentUser.buffer, currentUser.byteOffset, currentUser.byteLength);
  if (user.getUint32(12, true) === ENCRYPTED_TOKEN) {
    throw new UnsupportedDocumentError(
      `${filename} is password-protected (an encrypted PowerPoint 97-2003 presentation); save it without a password`,
    );
  }
  const { persist, docRef } = readPersist(stream, user.getUint32(16, true));
  const deck: Deck = { stream, bytes, persist };
  const document = recordOf(deck, docRef, RT.document);
  if (!document) throw new Error('the document record is missing');
  const lists = childrenOf(stream, document).filter((record) => record.type === RT.slideListWithText);
  const slides = lists.find((list) => list.instance === 0);
  const notesList = lists.find((list) => list.instance === 2);
  const notesById = new Map(
    (notesList ? slideList(deck, notesList) : []).map((notes) => [notes.slideId, notes]),
  );
  const group = childrenOf(stream, document).find((record) => record.type === RT.drawingGroup);
  const bstore = group ? bstoreEntries(stream, group) : [];
  const read = (slides ? slideList(deck, slides) : []).map((entry): PptSlide => {
    const slide = recordOf(deck, entry.persistRef, RT.slide);
    const { texts, pictures } = slide ? drawing(deck, slide, entry.texts) : { texts: [], pictures: [] };
    const atom = slide && childrenOf(stream, slide).find((record) => record.type === RT.slideAtom);
    const notesRef = atom ? stream.getUint32(atom.start + 16, true) : 0;
    const notesEntry = notesById.get(notesRef);
    const notesRecord = notesEntry && recordOf(deck, notesEntry.persistRef, RT.notes);
    const notes = notesRecord ? drawing(deck, notesRecord, notesEntry.texts).texts : [];
    return {
      texts: texts.length > 0 ? texts : entry.texts.filter((text) => text.text !== ''),
      pictures,
      notes: notes.filter((text) => text.textType === NOTES_TYPE).map((text) => text.text),
    };
  });
  return { slides: read, bstore };
}

export { NOTES_TYPE, TITLE_TYPES };

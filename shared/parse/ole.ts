import CFB from 'cfb';
import { damagedContainer } from './damaged.ts';
import { loopingAllocationTable } from './ole-chains.ts';

/** What an OLE compound file holds, told by its streams' names. */
export type OleKind = 'doc' | 'xls' | 'ppt' | 'msg' | 'unknown';

/** The streams of an OLE compound file by name (top-level names; storages' streams by their path). */
export interface OleFile {
  kind: OleKind;
  /** A stream's bytes by its name (`WordDocument`, `1Table`), or undefined. */
  stream(name: string): Uint8Array | undefined;
}

function toBytes(content: CFB.CFB$Blob | undefined): Uint8Array | undefined {
  if (!content) return undefined;
  return content instanceof Uint8Array ? content : Uint8Array.from(content);
}

function kindOf(names: Set<string>): OleKind {
  if (names.has('WordDocument')) return 'doc';
  if (names.has('Workbook') || names.has('Book')) return 'xls';
  if (names.has('PowerPoint Document')) return 'ppt';
  if ([...names].some((name) => name.startsWith('__substg1.0_'))) return 'msg';
  return 'unknown';
}

/**
 * Opens an OLE compound file (the container of Word, Excel and PowerPoint 97-2003 files) with the
 * `cfb` library and tells what it holds. A damaged container fails with that reason and what to do
 * (`damagedFile`), and so does one whose sector chains loop (`loopingAllocationTable`), which `cfb`
 * survives but other readers of the same bytes (word-extractor) do not.
 *
 * @example openOle(bytes, 'old.doc').kind // 'doc'
 */
export function openOle(bytes: Uint8Array, filename: string): OleFile {
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
    const looping = loopingAllocationTable(bytes);
    if (looping) throw new Error(`a sector chain of its ${looping} loops back on itself`);
  } catch (error) {
    throw damagedContainer(filename, 'OLE container', 'Office 97-2003 file', error);
  }
  const names = new Set(container.FileIndex.map((entry) => entry.name));
  return {
    kind: kindOf(names),
    stream: (name) => toBytes(CFB.find(container, name)?.content),
  };
}

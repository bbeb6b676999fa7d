import { openOle } from './ole.ts';

const LEGACY = {
  doc: 'Word 97-2003 (.doc) document',
  xls: 'Excel 97-2003 (.xls) workbook',
  ppt: 'PowerPoint 97-2003 (.ppt) presentation',
} as const;

/**
 * Why a .docx, .xlsx or .pptx reader cannot take the OLE bytes it was given. Only a file that opens
 * as a legacy Office file is advised to be saved in the newer format; a damaged one throws what
 * `openOle` says (damaged, with what to do), and an OLE file of another kind is named as such.
 *
 * @example legacyOfficeReason(docBytes, 'old.docx', '.docx') // 'it is a legacy Word 97-2003 (.doc) document; save it as .docx'
 */
export function legacyOfficeReason(bytes: Uint8Array, filename: string, newer: string): string {
  const { kind } = openOle(bytes, filename);
  if (kind === 'doc' || kind === 'xls' || kind === 'ppt')
    return `it is a legacy ${LEGACY[kind]}; save it as ${newer}`;
  return 'it is an OLE compound file that is not a Word, Excel or PowerPoint document';
}

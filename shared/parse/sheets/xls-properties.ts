import type { FullProperties } from '@e965/xlsx';
import CFB from 'cfb';
import type { OleFile } from '../ole.ts';
import { XLSX } from './sheetjs.ts';

/** The OLE property streams that hold a workbook's title, author and the like. */
const PROPERTY_STREAMS = ['\u0005SummaryInformation', '\u0005DocumentSummaryInformation'];

/**
 * An .xls file's document properties (title, author), read by SheetJS from a container holding
 * only the property streams, so they decode (code pages included) as before without SheetJS
 * reading the cells. Unreadable properties are left out, as SheetJS leaves them.
 *
 * @example xlsProperties(openOle(bytes, 'budget.xls')).Author // 'Ana'
 */
export function xlsProperties(ole: OleFile): FullProperties {
  const container = CFB.utils.cfb_new();
  let found = false;
  for (const name of PROPERTY_STREAMS) {
    const bytes = ole.stream(name);
    if (!bytes?.length) continue;
    CFB.utils.cfb_add(container, `/${name}`, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    found = true;
  }
  if (!found) return {};
  try {
    const bytes = CFB.write(container, { type: 'buffer' }) as Buffer;
    return XLSX.read(bytes, { type: 'buffer', bookProps: true }).Props ?? {};
  } catch {
    return {};
  }
}

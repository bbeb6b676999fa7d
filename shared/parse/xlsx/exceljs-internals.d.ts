/** exceljs's streaming worksheet reader, which its package exports at run time only as a type. */
declare module 'exceljs/lib/stream/xlsx/worksheet-reader.js' {
  const WorksheetReader: new (options: {
    workbook: unknown;
    id: number;
    iterator: import('node:stream').Readable | undefined;
    options: Record<string, unknown>;
  }) => unknown;
  export default WorksheetReader;
}

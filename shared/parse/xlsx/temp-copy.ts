import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `use` with the bytes written to a private temporary file, removed afterwards whatever happens.
 * exceljs's streaming reader loses ZIP entries that arrive while it is still buffering earlier
 * worksheets (its stream iterator drops them when a whole in-memory Readable arrives at once, e.g.
 * the shared strings of a file that stores them after its sheets); fed from a file it reads them all.
 */
export async function withTempCopy<T>(bytes: Uint8Array, use: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'dropqa-xlsx-'));
  try {
    const path = join(dir, 'workbook.xlsx');
    await writeFile(path, bytes);
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

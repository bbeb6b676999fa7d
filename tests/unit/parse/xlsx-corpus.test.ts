import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { parseXlsx } from '#shared/parse/xlsx/parse-xlsx.ts';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.xlsx'))
  .sort();

describe('parseXlsx over the corpus', () => {
  it('parses each .xlsx or fails with a readable reason, within 30 s each, without crashing', async () => {
    expect(files.length).toBeGreaterThan(20);
    const outcomes: Record<string, string> = {};
    for (const file of files) {
      const filename = file.split('/').pop() ?? file;
      const started = Date.now();
      try {
        const doc = await parseXlsx({ bytes: new Uint8Array(readFileSync(CORPUS + file)), filename });
        expect(doc.title.length, file).toBeGreaterThan(0);
        expect(
          doc.children.every((node) => node.type === 'section'),
          file,
        ).toBe(true);
        outcomes[file] = 'parsed';
      } catch (error) {
        expect(error, file).toBeInstanceOf(UnsupportedDocumentError);
        expect((error as Error).message, file).toMatch(new RegExp(`^${filename.replace(/[.]/g, '\\.')}[: ]`));
        outcomes[file] = 'failed';
      }
      expect(Date.now() - started, file).toBeLessThan(30_000);
    }
    const failed = Object.keys(outcomes).filter((file) => outcomes[file] === 'failed');
    // The two broken files of exceljs's own test data: a sheet of invalid XML, and no workbook part.
    expect(failed.map((file) => file.split('/').pop())).toEqual(['invalid-xml.xlsx', 'missing-bits.xlsx']);
  }, 120_000);
});

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { parseDocx } from '#shared/parse/docx/index.ts';

const CORPUS = '/work/shared/corpus';
const files = execFileSync('find', [CORPUS, '-name', '*.docx', '-type', 'f'])
  .toString()
  .trim()
  .split('\n')
  .sort();

describe('parseDocx over the corpus', () => {
  it('parses each .docx or fails with a reason, within 30 s each, without crashing', async () => {
    expect(files.length).toBeGreaterThan(10);
    let parsed = 0;
    for (const file of files) {
      const filename = file.split('/').pop() ?? file;
      const started = Date.now();
      try {
        const document = await parseDocx({ bytes: new Uint8Array(readFileSync(file)), filename });
        expect(document.title.length, file).toBeGreaterThan(0);
        parsed++;
      } catch (error) {
        expect(error, file).toBeInstanceOf(UnsupportedDocumentError);
        expect((error as Error).message).toMatch(new RegExp(`^${filename.replace(/[.]/g, '\\.')} is `));
      }
      expect(Date.now() - started, file).toBeLessThan(30_000);
    }
    expect(parsed).toBeGreaterThan(files.length * 0.9);
  }, 120_000);
});

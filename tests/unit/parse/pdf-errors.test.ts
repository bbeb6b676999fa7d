import { describe, expect, it } from 'vitest';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parsePdf } from '#shared/parse/pdf/index.ts';
import { body, outline, pdfBytes } from './pdf-fixtures.ts';

const TEXT = 'Quarterly figures are attached for review by the finance team.';

async function threePages(): Promise<Uint8Array> {
  return pdfBytes((doc) => {
    for (let page = 1; page <= 3; page++) {
      if (page > 1) doc.addPage();
      body(doc, `${TEXT} Page ${page}.`);
    }
  });
}

async function failure(promise: Promise<unknown>): Promise<UnsupportedDocumentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnsupportedDocumentError);
  return error as UnsupportedDocumentError;
}

describe('parsePdf errors', () => {
  it('refuses a password-protected PDF with a reason that says so', async () => {
    const bytes = await pdfBytes((doc) => body(doc, TEXT), {
      userPassword: 'secret',
      ownerPassword: 'owner',
    });
    const error = await failure(parsePdf({ bytes, filename: 'locked.pdf' }));
    expect(error.message).toBe('locked.pdf is password-protected; remove the password and upload it again');
  });

  it('reads a PDF that only has an owner password (printing or copying restricted)', async () => {
    const bytes = await pdfBytes((doc) => body(doc, TEXT), {
      ownerPassword: 'owner',
      permissions: { copying: false },
    });
    const parsed = await parsePdf({ bytes, filename: 'restricted.pdf' });
    expect(outline(parsed.children)).toEqual([`paragraph:${TEXT}`]);
  });

  it('refuses bytes that are not a PDF at all', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\nthis is not really a PDF\n');
    const error = await failure(parsePdf({ bytes, filename: 'fake.pdf' }));
    expect(error.message).toMatch(/^fake\.pdf is not a readable PDF \(corrupt or truncated\)/);
  });

  it('refuses a truncated PDF with a readable reason', async () => {
    const whole = await threePages();
    const bytes = whole.slice(0, Math.floor(whole.length * 0.4));
    const error = await failure(parsePdf({ bytes, filename: 'cut.pdf' }));
    expect(error.message).toMatch(/^cut\.pdf.*(corrupt or truncated)/);
  });

  it('warns when a PDF lost its end and pdf.js rebuilt it', async () => {
    const whole = await threePages();
    const parsed = await parsePdf({ bytes: whole.slice(0, whole.length - 40), filename: 'tail.pdf' });
    expect(outline(parsed.children)).toEqual([1, 2, 3].map((page) => `paragraph:${TEXT} Page ${page}.`));
    expect(parsed.warnings).toContain(
      'the file has no end-of-file marker (truncated?): pdf.js rebuilt what it could, some text may be missing',
    );
  });

  it('refuses a PDF with more pages than the limit allows', async () => {
    const bytes = await threePages();
    const limits = { ...DEFAULT_PARSE_LIMITS, maxPages: 2 };
    const error = await failure(parsePdf({ bytes, filename: 'long.pdf', limits }));
    expect(error.message).toBe('long.pdf has 3 pages, more than the 2 allowed (limits.maxPages)');
  });

  it('stops between pages when the parse runs out of time', async () => {
    const controller = new AbortController();
    controller.abort(new UnsupportedDocumentError('slow.pdf took longer than 1 ms to parse'));
    const error = await failure(
      parsePdf({ bytes: await threePages(), filename: 'slow.pdf', signal: controller.signal }),
    );
    expect(error.message).toBe('slow.pdf took longer than 1 ms to parse');
  });
});

import { describe, expect, it } from 'vitest';
import { sourceLine } from '#shared/cli/commands/ask.ts';

describe('dropqa ask: a source line', () => {
  const source = { citation: 1, document_name: 'receipt.md', section: '', relevance: 0.2, verified: true };

  it('names the document alone when the passage stands in no section', () => {
    expect(sourceLine(source)).toBe('  [1] receipt.md (relevance 0.20)');
  });

  it('names the section after the document, and flags a quote the source does not hold', () => {
    expect(sourceLine({ ...source, section: 'Totals', verified: false })).toBe(
      '  [1] receipt.md > Totals (relevance 0.20) [quote not found in this source]',
    );
  });
});

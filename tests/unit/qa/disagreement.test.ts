import { describe, expect, it } from 'vitest';
import { disagreementNote } from '#shared/qa/disagreement.ts';

const quote = (text: string, marker: string, documentId: string) => ({
  text,
  marker,
  documentId,
  documentName: `${documentId}.md`,
});

describe('disagreementNote', () => {
  it('quotes both sides when two documents give different amounts for one thing', () => {
    const note = disagreementNote('云平台的预算是多少？', [
      quote('云平台项目的预算为500万元。', '[1]', 'plan'),
      quote('云平台项目的预算为300万元。', '[2]', 'review'),
    ]);
    expect(note).toContain('文档之间的说法不一致');
    expect(note).toContain(
      '《plan.md》 “云平台项目的预算为500万元。” [1] 与 《review.md》 “云平台项目的预算为300万元。” [2]',
    );
  });

  it('names the documents in quotation marks, not Chinese title marks, in an English answer', () => {
    const note = disagreementNote('What is the Kestrel budget?', [
      quote('The Kestrel budget was 2.4 million euros.', '[1]', 'plan'),
      quote('The Kestrel budget was 3.1 million euros.', '[2]', 'review'),
    ]);
    expect(note).toContain('"plan.md" “The Kestrel budget was 2.4 million euros.” [1] vs "review.md"');
    expect(note).not.toMatch(/[《》]/);
  });

  it('says nothing when the documents agree, or when one document states both', () => {
    const a = quote('The Kestrel budget was 2.4 million euros.', '[1]', 'a');
    expect(
      disagreementNote('Budget?', [a, quote('The Kestrel budget was 2.4 million euros.', '[2]', 'b')]),
    ).toBe('');
    expect(
      disagreementNote('Budget?', [a, quote('The Kestrel budget was 3.1 million euros.', '[2]', 'a')]),
    ).toBe('');
  });
});

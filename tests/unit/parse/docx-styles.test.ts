import { describe, expect, it } from 'vitest';
import { headingLevel } from '#shared/parse/docx/heading-level.ts';
import { listParagraph } from '#shared/parse/docx/list.ts';

describe('headingLevel', () => {
  it.each([
    ['heading 1', null, 1],
    ['Heading 9', null, 9],
    ['标题 2', '2', 2],
    ['标题1', null, 1],
    ['Überschrift 3', null, 3],
    ['Titre 4', null, 4],
    ['見出し 2', null, 2],
    ['Title', null, 0],
    ['标题', null, 0],
    [null, 'Heading2', 2],
    ['Custom', 'Title', 0],
  ])('maps style %s (id %s) to level %s', (name, id, level) => {
    expect(headingLevel(name, id)).toBe(level);
  });

  it('returns undefined for body text styles', () => {
    expect(headingLevel('Normal', 'Normal')).toBeUndefined();
    expect(headingLevel('Heading 10', null)).toBeUndefined();
    expect(headingLevel('List Paragraph', null)).toBeUndefined();
    expect(headingLevel(null, null)).toBeUndefined();
  });
});

describe('listParagraph', () => {
  it('restarts numbering per level and indents nested items', () => {
    const node = listParagraph([
      { text: 'a', level: 0, ordered: true },
      { text: 'b', level: 1, ordered: true },
      { text: 'c', level: 1, ordered: true },
      { text: 'd', level: 0, ordered: true },
      { text: 'e', level: 1, ordered: false },
    ]);
    expect(node).toEqual({
      type: 'paragraph',
      text: '1. a\n  1. b\n  2. c\n2. d\n  - e',
      metadata: { kind: 'list', ordered: false },
    });
  });
});

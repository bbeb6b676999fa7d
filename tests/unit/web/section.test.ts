import { describe, expect, it } from 'vitest';
import { findSectionById, findSectionPath } from '../../../web/src/lib/section.ts';
import type { StructureSection } from '../../../web/src/lib/types.ts';

function section(id: string, title: string, children: StructureSection[] = []): StructureSection {
  const counts = { sections: 0, paragraphs: 1, tables: 0, images: 0 };
  return { id, title, summary: null, depth: 1, position: 0, ordinal: 0, category: null, counts, children };
}

const tree = [
  section('a', '第1章 概述', [section('a1', '1.1 背景'), section('a2', '1.2 项目目标')]),
  section('b', '第3章 基础设施', [section('b1', '3.2  云平台建设', [section('b11', 'Budget')])]),
];

describe('findSectionPath', () => {
  it('follows a citation path down the tree, comparing titles loosely', () => {
    expect(findSectionPath(tree, '第3章 基础设施 > 3.2 云平台建设 > budget').map((s) => s.id)).toEqual([
      'b',
      'b1',
      'b11',
    ]);
  });

  it('finds a section whose ancestors the path leaves out', () => {
    expect(findSectionPath(tree, 'Budget').map((s) => s.id)).toEqual(['b', 'b1', 'b11']);
  });

  it('keeps the deepest matching prefix when the rest of the path is unknown', () => {
    expect(findSectionPath(tree, '第1章 概述 > 1.9 Missing').map((s) => s.id)).toEqual(['a']);
  });

  it('returns nothing for an empty path', () => {
    expect(findSectionPath(tree, '')).toEqual([]);
  });
});

describe('findSectionById', () => {
  it('returns the chain from the top down to the section', () => {
    expect(findSectionById(tree, 'a2').map((s) => s.id)).toEqual(['a', 'a2']);
    expect(findSectionById(tree, 'nope')).toEqual([]);
  });
});

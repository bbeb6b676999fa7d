import { describe, expect, it } from 'vitest';
import { formatOutline } from '#shared/enrich/topics/outline.ts';

const SECTIONS = [
  { title: 'Plan', summary: 'The plan.', depth: 1 },
  { title: 'Cloud', summary: 'Moving to the cloud.', depth: 2 },
  { title: 'Containers', summary: null, depth: 3 },
  { title: 'Budget', summary: 'Costs.', depth: 1 },
];

describe('formatOutline', () => {
  it('indents each section under its parent, with its summary when it has one', () => {
    expect(formatOutline(SECTIONS, 1000)).toBe(
      '- Plan: The plan.\n  - Cloud: Moving to the cloud.\n    - Containers\n- Budget: Costs.',
    );
  });

  it('drops the deepest levels first when the outline is too long', () => {
    expect(formatOutline(SECTIONS, 40)).toBe('- Plan: The plan.\n- Budget: Costs.');
    expect(formatOutline(SECTIONS, 10)).toBe('- Plan: Th');
  });
});

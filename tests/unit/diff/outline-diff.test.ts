import { describe, expect, it } from 'vitest';
import { buildOutline, diffOutlines, type OutlineRow, type VersionOutline } from '#shared/diff/index.ts';
import { flattenTree } from '#shared/index/flatten.ts';
import { parseMarkdown } from '#shared/parse/markdown.ts';

/** A Markdown version as the diff reads it from `nodes` rows (parsed and flattened for real). */
async function outline(markdown: string, version: number): Promise<VersionOutline> {
  const parsed = await parseMarkdown({ bytes: new TextEncoder().encode(markdown), filename: 'policy.md' });
  const rows: OutlineRow[] = flattenTree(parsed, { documentId: 'd', version }).map((row) => ({
    id: row.id,
    parent_id: row.parentId,
    node_type: row.nodeType,
    ordinal: row.ordinal,
    title: row.title,
    content: row.content,
    metadata: row.metadata,
    image_size: null,
  }));
  return buildOutline(rows, version);
}

async function diff(before: string, after: string) {
  return diffOutlines(await outline(before, 1), await outline(after, 2));
}

const POLICY = `# Policy

## Refunds

Refunds are accepted within 14 days of purchase.

Keep the receipt.

## Shipping

We ship to every country in the EU.

## Contact

Write to support.
`;

describe('diffOutlines', () => {
  it('reports nothing for identical versions', async () => {
    const result = await diff(POLICY, POLICY);
    expect(result.sections).toEqual([]);
    expect(result.summary.paragraphs).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  it('reports a changed paragraph with its word changes, keyed by section path', async () => {
    const result = await diff(POLICY, POLICY.replace('within 14 days', 'within 30 days'));
    expect(result.sections).toHaveLength(1);
    const [section] = result.sections;
    expect(section?.status).toBe('modified');
    expect(section?.path).toEqual(['Policy', 'Refunds']);
    expect(section?.leaves).toHaveLength(1);
    const [leaf] = section?.leaves ?? [];
    expect(leaf?.change).toBe('changed');
    expect(leaf?.from?.text).toBe('Refunds are accepted within 14 days of purchase.');
    expect(leaf?.to?.text).toBe('Refunds are accepted within 30 days of purchase.');
    expect(leaf?.words).toEqual([
      { op: 'equal', text: 'Refunds are accepted within ' },
      { op: 'delete', text: '14' },
      { op: 'insert', text: '30' },
      { op: 'equal', text: ' days of purchase.' },
    ]);
    expect(result.summary.paragraphs).toEqual({ added: 0, removed: 0, changed: 1 });
  });

  it('reports paragraphs added and removed, and sections added and removed in reading order', async () => {
    const after = POLICY.replace('Keep the receipt.\n', 'Keep the receipt.\n\nGift cards are not refunded.\n')
      .replace('## Shipping\n\nWe ship to every country in the EU.\n\n', '')
      .replace('## Contact', '## Warranty\n\nTwo years on every product.\n\n## Contact');
    const result = await diff(POLICY, after);
    expect(result.sections.map((s) => [s.status, s.path.join(' > ')])).toEqual([
      ['modified', 'Policy > Refunds'],
      ['removed', 'Policy > Shipping'],
      ['added', 'Policy > Warranty'],
    ]);
    expect(result.sections[0]?.leaves.map((l) => [l.change, l.to?.text])).toEqual([
      ['added', 'Gift cards are not refunded.'],
    ]);
    expect(result.sections[1]?.leaves.map((l) => [l.change, l.from?.text])).toEqual([
      ['removed', 'We ship to every country in the EU.'],
    ]);
    expect(result.summary.sections).toEqual({ added: 1, removed: 1, renamed: 0, moved: 0, modified: 1 });
    expect(result.summary.paragraphs).toEqual({ added: 2, removed: 1, changed: 0 });
  });

  it('reports a renamed section by its content, and no paragraph change', async () => {
    const result = await diff(POLICY, POLICY.replace('## Refunds', '## Returns and refunds'));
    expect(result.sections).toEqual([
      {
        status: 'renamed',
        path: ['Policy', 'Returns and refunds'],
        fromPath: ['Policy', 'Refunds'],
        moved: false,
        leaves: [],
      },
    ]);
  });

  it('reports a section moved among its siblings or under another parent', async () => {
    const reordered = `# Policy

## Contact

Write to support.

## Refunds

Refunds are accepted within 14 days of purchase.

Keep the receipt.

## Shipping

We ship to every country in the EU.
`;
    const moved = await diff(POLICY, reordered);
    expect(moved.sections.map((s) => [s.status, s.path.join(' > '), s.fromPath?.join(' > ')])).toEqual([
      ['moved', 'Policy > Contact', 'Policy > Contact'],
    ]);

    const nested = POLICY.replace('## Contact', '### Contact');
    const under = await diff(POLICY, nested);
    expect(under.sections.map((s) => [s.status, s.path.join(' > '), s.fromPath?.join(' > ')])).toEqual([
      ['moved', 'Policy > Shipping > Contact', 'Policy > Contact'],
    ]);
  });

  it('keeps sections matched when the document title changes', async () => {
    const result = await diff(POLICY, POLICY.replace('# Policy', '# Store policy'));
    expect(result.sections.map((s) => s.status)).toEqual(['renamed']);
    expect(result.sections[0]?.path).toEqual(['Store policy']);
  });

  it('reports a changed table cell with word changes', async () => {
    const table = (days: string) =>
      `# Fees\n\n## Table\n\n| Item | Days |\n| --- | --- |\n| Books | ${days} |\n| Toys | 7 |\n`;
    const result = await diff(table('14'), table('30'));
    const leaf = result.sections[0]?.leaves[0];
    expect(leaf?.kind).toBe('table');
    expect(leaf?.change).toBe('changed');
    expect(leaf?.words?.filter((w) => w.op !== 'equal')).toEqual([
      { op: 'delete', text: '14' },
      { op: 'insert', text: '30' },
    ]);
    expect(result.summary.tables).toEqual({ added: 0, removed: 0, changed: 1 });
  });

  it('splits Chinese text into words for the word changes', async () => {
    const doc = (days: string) => `# 退款政策\n\n## 退款期限\n\n自购买之日起${days}内可以申请退款。\n`;
    const result = await diff(doc('七天'), doc('三十天'));
    const words = result.sections[0]?.leaves[0]?.words ?? [];
    expect(words.map((w) => w.text).join('')).toBe(
      '自购买之日起三十天内可以申请退款。'.replace('三十天', '七天三十天'),
    );
    expect(words.filter((w) => w.op === 'delete').map((w) => w.text)).toEqual(['七天']);
    expect(words.filter((w) => w.op === 'insert').map((w) => w.text)).toEqual(['三十天']);
  });
});
